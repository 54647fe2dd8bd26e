/**
 * The Contact Info step (spec 2.14, 5): the booker form (its e-mail is the account's), attendee forms when the
 * course captures guests, marketing consent and terms. Writes stepState.contactDetails and binds the checkout to
 * the learner.
 */
import type { z } from 'zod';
import { ProblemError, problems, type ProblemProperty } from '../../../src/domain/problems.ts';
import {
  BOOKER_RESPONSE_PATH, DEFAULT_FORM_REF, attendeeResponsePath, assertKnownUser, bookerFormRef, capturesGuests,
  showMarketingConsent, termsPreAccepted, validateFormResponse, validateTerms, TERMS_MESSAGE, type FormResponse,
} from '../../../src/domain/checkout/validation.ts';
import { SYSTEM_EMAIL_LOCKED_DESCRIPTION } from '../../../src/domain/checkout/constants.ts';
import { catalogueCache } from '../catalogue-cache.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep, type StepDef } from '../definition.ts';
import { contactAction, type ContactAction, type FlowRules } from '../../../src/domain/checkout/flows.ts';
import { entry, requestedSpaces, setEntry, type Ctx } from '../context.ts';
import { writeLater } from '../../../db/client.ts';

async function fillContactDetails(ctx: Ctx, payload: z.output<(typeof ACTION_PAYLOADS)[ContactAction]>): Promise<void> {
  assertKnownUser(ctx.user?.id);
  const user = ctx.user!;
  const educator = ctx.cat.educator;
  const origin = ctx.row.origin;
  const properties: ProblemProperty[] = [];

  const formId = bookerFormRef(ctx.cat.course ?? {}, ctx.cat.educator);
  const forms = catalogueCache(ctx.deps.db);
  const formOf = (id: string | null | undefined) => forms.form(ctx.q, id, educator.id, ctx.stamp);
  const form = (await formOf(formId)) ?? (await formOf(DEFAULT_FORM_REF))!;
  const booker: FormResponse = { ...payload.bookerFormResponse };
  // The booker's e-mail is the account's and cannot be edited (spec 5).
  const given = typeof booker.system_email === 'string' ? booker.system_email.trim() : '';
  if (given && given.toLowerCase() !== user.email.toLowerCase()) {
    properties.push({ key: `${BOOKER_RESPONSE_PATH}.system_email`, name: 'Email', message: SYSTEM_EMAIL_LOCKED_DESCRIPTION });
  }
  booker.system_email = user.email;
  properties.push(...validateFormResponse(form, booker, BOOKER_RESPONSE_PATH));

  const attendees: FormResponse[] = [];
  const guests = capturesGuests({ capture_guests: ctx.cat.course?.capture_guests });
  if (guests) {
    const expected = Math.max(0, requestedSpaces(ctx) - (payload.bookerIsAttending ? 1 : 0));
    const responses = payload.attendeeFormResponses.map((r) => ('formResponse' in r && typeof r.formResponse === 'object' && r.formResponse !== null && !Array.isArray(r.formResponse) ? r.formResponse : r) as FormResponse);
    if (responses.length !== expected) {
      properties.push({ key: 'payload.attendeeFormResponses', name: 'Attendees', message: `must hold the details of ${expected} ${expected === 1 ? 'attendee' : 'attendees'}` });
    }
    const guestRef = ctx.cat.course?.guest_form_ref;
    const guestForm = guestRef ? (await formOf(guestRef)) ?? form : form;
    responses.slice(0, expected).forEach((response, index) => {
      properties.push(...validateFormResponse(guestForm, response, attendeeResponsePath(index)));
      attendees.push(response);
    });
  }
  const preAccepted = termsPreAccepted({ hideTerms: educator.feature_flags?.hide_terms, origin });
  const termsMessage = validateTerms({ termsAccepted: payload.termsAccepted, hideTerms: educator.feature_flags?.hide_terms, origin });
  if (termsMessage) properties.push({ key: 'payload.termsAccepted', name: 'Terms', message: TERMS_MESSAGE });
  if (properties.length) throw new ProblemError({ ...problems.validation(properties) });

  const marketingConsent = showMarketingConsent(educator.feature_flags) ? payload.marketingConsent : false;
  setEntry(ctx, 'contactDetails', {
    booker: { formResponse: booker, isAttending: guests ? payload.bookerIsAttending : true },
    attendees: attendees.map((formResponse) => ({ formResponse })),
    marketingConsent,
    // Acceptance is recorded only for terms the learner was shown: hidden terms (spec 5) are waived, not
    // accepted, whatever the client says — the origin that hides them is the client's own claim.
    termsShown: !preAccepted,
    termsAccepted: preAccepted ? false : payload.termsAccepted,
    bookerFormId: form._id ?? formId,
  });
  ctx.row.user_id = user.id;
  ctx.row.student_id = user.studentId;
  // Remember the answers to prefill the learner's next booker form (GET /student_metadata/form/{formId}).
  const formKey = (form as { _id?: string })._id ?? formId;
  await writeLater(ctx.q, ctx.q
    .insertInto('student_form_responses')
    .values({ user_id: user.id, form_id: formKey, form_response: booker, updated_at: ctx.now })
    .onConflict((oc) => oc.columns(['user_id', 'form_id']).doUpdateSet({ form_response: booker, updated_at: ctx.now })));
}

/** Spec 2.14 "Contact Info", under the action name the flow's rules give (order: "order contact details filled"). */
export function contactStep(rules: FlowRules): StepDef<'contactDetails'> {
  const actionName = contactAction(rules);
  return defineStep({
    id: 'contactDetails',
    isComplete: (ctx) => entry(ctx, 'contactDetails') !== null,
    actions: {
      [actionName]: action({
        payload: ACTION_PAYLOADS[actionName],
        handle: async (ctx, payload) => {
          await fillContactDetails(ctx, payload);
          return ADVANCE;
        },
      }),
    },
  });
}
