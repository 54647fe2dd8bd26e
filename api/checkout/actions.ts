/**
 * The submit-response envelope and each action's payload (spec 4 "Checkout actions").
 * Envelope: `{action: "<name exactly as in the table>", payload: {...}}`.
 */
import { z } from 'zod';
import { PAYMENT_METHODS } from '../../src/domain/checkout/paymentMethods.ts';

export const envelopeSchema = z.object({
  action: z.string().max(100),
  payload: z.unknown().optional(),
});

const id = z.string().min(1).max(200);
const quantity = z.number().int().min(0).max(10_000);
const offerLine = z.object({ offerId: id, quantity });
const addOnLine = z.object({ addonId: id, quantity });
const message = z.string().max(5000);
/** Form answers: field id → text, number, boolean or a list of texts. */
const formValue = z.union([z.string().max(5000), z.number(), z.boolean(), z.null(), z.array(z.string().max(1000)).max(100)]);
export const formResponseSchema = z.record(z.string().max(200), formValue).refine((r) => Object.keys(r).length <= 200, 'has too many fields');

const pricing = z.object({
  selectedOffers: z.array(offerLine).max(100).optional(),
  selectedAddons: z.array(addOnLine).max(100).optional().default([]),
  appliedPromoCode: z.string().max(200).nullable().optional(),
  /** Only for occurrences without offers: the number of spaces. */
  spacesRequested: z.number().int().min(1).max(10_000).optional(),
  /** A member pays one space with a membership credit. */
  useMembershipCredit: z.boolean().optional().default(false),
});

const contact = z.object({
  bookerId: z.string().max(200).nullable().optional(),
  attendeeFormId: z.string().max(200).nullable().optional(),
  bookerFormId: z.string().max(200).nullable().optional(),
  termsAccepted: z.boolean().optional().default(false),
  bookerFormResponse: formResponseSchema.optional().default({}),
  bookerIsAttending: z.boolean().optional().default(true),
  attendeeFormResponses: z
    .array(z.union([formResponseSchema, z.object({ formResponse: formResponseSchema })]))
    .max(1000)
    .optional()
    .default([]),
  marketingConsent: z.boolean().optional().default(false),
});

const invoice = z.object({
  billing_name: z.string().max(300).nullable().optional(),
  billing_email: z.string().max(300).nullable().optional(),
  vat_number: z.string().max(100).nullable().optional(),
  invoice_ref: z.string().max(200).nullable().optional(),
  billing_address: z.string().max(1000).nullable().optional(),
  recipient_instructions: z.string().max(2000).nullable().optional(),
});

const delivery = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Online') }),
  z.object({ type: z.literal('Educator travels'), address: z.string().max(1000) }),
  z.object({ type: z.literal('Student travels'), location_ref: z.string().max(200) }),
]);

const requestPricing = z.discriminatedUnion('type', [
  z.object({ type: z.literal('offers'), offers: z.record(id, quantity), addOns: z.record(id, quantity).optional().default({}) }),
  z.object({ type: z.literal('spaces'), quantity: z.number().int().min(1).max(10_000) }),
]);

const dateText = z.string().max(100).nullable();

export const ACTION_PAYLOADS = {
  'occurrence picked': z.object({ occurrence_id: id }),
  'pricing options picked': pricing,
  'order pricing options picked': pricing,
  'contact details filled': contact,
  'order contact details filled': contact,
  'payment method selected': z.object({ paymentMethod: z.enum(PAYMENT_METHODS) }),
  'payment was successful': z.object({
    payment_intent_client_secret: z.string().max(500).optional(),
    redirect_status: z.string().max(100).optional(),
  }),
  'invoice details added': invoice,
  'manual payment confirmed': z.object({}),
  'request delivery configured': z.object({
    selectedDurationId: z.string().max(200).nullable().optional(),
    delivery: delivery.optional(),
    pricing: requestPricing.optional(),
    // Not in spec 4's payload: "Apply promo code or gift card" for an instant booking, which is paid at checkout.
    appliedPromoCode: z.string().max(200).nullable().optional(),
  }),
  'request message filled': z.object({ message }),
  'request preferred dates selected': z.object({ preferredDates: z.array(dateText).max(10) }),
  'request available date selected': z.object({ availableDate: z.string().min(1).max(100) }),
  'skip available dates': z.object({}),
  'dates and prices selected': z.object({
    selectedDates: z.array(dateText).max(10),
    selectedOffers: z.array(offerLine).max(100).optional(),
    selectedAddons: z.array(addOnLine).max(100).optional().default([]),
  }),
  'message filled': z.object({ message }),
  'membership plan picked': z.object({ planId: id }),
  'gift amount picked': z.object({ amount: z.number().int().min(1).max(10_000_000) }),
  'gift details filled': z.object({
    buyerName: z.string().max(200).default(''),
    buyerEmail: z.string().max(300).default(''),
    recipientName: z.string().max(200).default(''),
    recipientEmail: z.string().max(300).default(''),
    message: z.string().max(5000).default(''),
    sendDate: z.string().max(20).default(''),
  }),
  'go back': z.object({}),
} satisfies Record<string, z.ZodType>;

