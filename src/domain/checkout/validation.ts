/**
 * Checkout validation (spec 3 "Form", 5 "Checkout", 6 "Marketing consent").
 * Each rule returns messages or validation properties; nothing throws except
 * {@link assertKnownUser}.
 */
import type { ProblemProperty } from '../problems.ts';
import { ProblemError, problems } from '../problems.ts';
import { validateEmail } from '../email.ts';
import { phoneError } from '../phone.ts';
import { courseKeyword, titleCase } from '../text.ts';
import type { AppContext } from '../app-context.ts';
import type { CheckoutOrigin } from './flows.ts';
import { MAX_PREFERRED_DATES, MIN_PREFERRED_DATES, PREFERRED_DATE_LABELS } from './constants.ts';

/** Spec 5: the terms message. */
export const TERMS_MESSAGE = 'Please accept the Terms and Conditions to continue';
/** Chosen message for an empty required field (server rules are not shown in the spec). */
export const REQUIRED_MESSAGE = 'is required';

/** Spec 3 "Form": the default form's system fields and their labels. */
export const SYSTEM_FIELD_LABELS = {
  system_first_name: 'First Name',
  system_last_name: 'Last Name',
  system_email: 'Email',
} as const;
export type SystemFieldId = keyof typeof SYSTEM_FIELD_LABELS;
export const SYSTEM_FIELD_IDS = Object.keys(SYSTEM_FIELD_LABELS) as SystemFieldId[];
/** Spec 3: `form_ref` default. */
export const DEFAULT_FORM_REF = 'system_default';

/** The booker form of a course: its own, else (when it names none or the default) the educator's, else the system form. */
export function bookerFormRef(course: { form_ref?: string | null }, educator: { form_ref?: string | null }): string {
  const ref = course.form_ref;
  if ((!ref || ref === DEFAULT_FORM_REF) && educator.form_ref) return educator.form_ref;
  return ref || DEFAULT_FORM_REF;
}
/** Spec 3: this field is removed from displayed forms. */
export const MARKETING_CONSENT_FIELD_ID = 'educator_marketing_consent';

export interface FormField {
  _id: string;
  label?: string | null;
  description?: string | null;
  data_type?: string | null;
  items?: unknown[] | null;
}

export interface FormValidation {
  field_ref: string;
  condition?: string | null;
  value?: unknown;
}

export interface FormDefinition {
  fields: FormField[];
  validations?: FormValidation[] | null;
}

export type FormResponse = Record<string, unknown>;

/** Spec 3: the default form (first name, last name, email, all required). */
export function defaultForm(): FormDefinition {
  return {
    fields: [
      { _id: 'system_first_name', label: SYSTEM_FIELD_LABELS.system_first_name, data_type: 'first_name' },
      { _id: 'system_last_name', label: SYSTEM_FIELD_LABELS.system_last_name, data_type: 'last_name' },
      { _id: 'system_email', label: SYSTEM_FIELD_LABELS.system_email, data_type: 'email' },
    ],
    validations: [],
  };
}

/** Spec 3: the displayed fields, without `educator_marketing_consent`. */
export function displayedFields(form: FormDefinition): FormField[] {
  return form.fields.filter((field) => field._id !== MARKETING_CONSENT_FIELD_ID);
}

/** Spec 5: the booker form's system_email is not editable. */
export function isFieldLocked(fieldId: string, role: 'booker' | 'attendee'): boolean {
  return role === 'booker' && fieldId === 'system_email';
}

/**
 * Spec 5: required field ids: the three system fields always, plus every field
 * with a validation {condition "required", value true}.
 */
export function requiredFieldIds(form: FormDefinition): string[] {
  const ids: string[] = [...SYSTEM_FIELD_IDS];
  for (const validation of form.validations ?? []) {
    if (validation.condition === 'required' && validation.value === true && !ids.includes(validation.field_ref)) {
      ids.push(validation.field_ref);
    }
  }
  return ids;
}

/**
 * Whether a response value counts as answered: not null/undefined, not blank
 * text, not an empty list; for 'boolean' fields only `true` counts (a required
 * single checkbox must be ticked).
 */
export function isAnswered(value: unknown, dataType?: string | null): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (dataType === 'boolean') return value === true;
  if (typeof value === 'number') return Number.isFinite(value);
  return true;
}

function fieldLabel(fieldId: string, field: FormField | undefined): string {
  return field?.label?.trim() || SYSTEM_FIELD_LABELS[fieldId as SystemFieldId] || titleCase(fieldId);
}

/**
 * Spec 5 / 8: validates a form response. Returns validation properties keyed
 * '{pathPrefix}.{fieldId}' (e.g. 'payload.bookerFormResponse.system_email',
 * 'payload.attendeeFormResponses.0.system_email'), named by the field label.
 * Required fields must be answered; answered email fields must pass the spec 5
 * e-mail rules and tel fields the phone rules. 'statement' fields are display-only.
 */
export function validateFormResponse(form: FormDefinition, response: FormResponse | null | undefined, pathPrefix: string): ProblemProperty[] {
  const values = response ?? {};
  const fieldsById = new Map(form.fields.map((field) => [field._id, field]));
  const key = (fieldId: string) => (pathPrefix ? `${pathPrefix}.${fieldId}` : fieldId);
  const properties: ProblemProperty[] = [];
  const required = new Set(requiredFieldIds(form));
  const order = [...SYSTEM_FIELD_IDS, ...form.fields.map((field) => field._id).filter((id) => !SYSTEM_FIELD_IDS.includes(id as SystemFieldId))];
  for (const fieldId of order) {
    if (fieldId === MARKETING_CONSENT_FIELD_ID) continue;
    const field = fieldsById.get(fieldId);
    const dataType = field?.data_type ?? (fieldId === 'system_email' ? 'email' : undefined);
    if (dataType === 'statement') continue;
    const value = values[fieldId];
    if (!isAnswered(value, dataType)) {
      if (required.has(fieldId)) properties.push({ key: key(fieldId), name: fieldLabel(fieldId, field), message: REQUIRED_MESSAGE });
      continue;
    }
    if (dataType === 'email') {
      const message = validateEmail(typeof value === 'string' ? value.trim() : value);
      if (message) properties.push({ key: key(fieldId), name: fieldLabel(fieldId, field), message });
    } else if (dataType === 'tel') {
      const message = phoneError(value);
      if (message) properties.push({ key: key(fieldId), name: fieldLabel(fieldId, field), message });
    }
  }
  return properties;
}

/** Spec 8: nested path of the booker form response. */
export const BOOKER_RESPONSE_PATH = 'payload.bookerFormResponse';
/** Spec 8: nested path of the attendees' form responses. */
export const ATTENDEE_RESPONSES_PATH = 'payload.attendeeFormResponses';
/** Spec 8: nested path of attendee `index`'s form response. */
export function attendeeResponsePath(index: number): string {
  return `${ATTENDEE_RESPONSES_PATH}.${index}`;
}

/** Spec 5: terms are hidden and pre-accepted when the educator has hide_terms and the origin is not the marketplace. */
export function termsPreAccepted(input: { hideTerms?: boolean | null; origin: CheckoutOrigin | (string & {}) }): boolean {
  return !!input.hideTerms && input.origin !== 'marketplace';
}

/** Spec 5: the terms message when terms must be accepted and are not; null when fine. */
export function validateTerms(input: { termsAccepted?: boolean | null; hideTerms?: boolean | null; origin: CheckoutOrigin | (string & {}) }): string | null {
  if (termsPreAccepted(input)) return null;
  return input.termsAccepted === true ? null : TERMS_MESSAGE;
}

/** Spec 8: "Unknown user" when contact details are submitted without a logged-in id. */
export function assertKnownUser(userId: string | null | undefined): asserts userId is string {
  if (!userId) throw new ProblemError(problems.unknownUser());
}

/**
 * Spec 5: preferred dates: at least 1 and at most 3, each required. Properties
 * are keyed '{pathPrefix}' for the count and '{pathPrefix}.{index}' for an empty
 * date (named 'First choice', 'Second choice', 'Third choice').
 */
export function validatePreferredDates(dates: ReadonlyArray<string | null | undefined>, pathPrefix = 'payload.preferredDates'): ProblemProperty[] {
  if (dates.length < MIN_PREFERRED_DATES) return [{ key: pathPrefix, name: 'Preferred Dates', message: 'must include at least 1 date' }];
  if (dates.length > MAX_PREFERRED_DATES) return [{ key: pathPrefix, name: 'Preferred Dates', message: `must include at most ${MAX_PREFERRED_DATES} dates` }];
  const properties: ProblemProperty[] = [];
  dates.forEach((date, index) => {
    if (!date || !date.trim()) properties.push({ key: `${pathPrefix}.${index}`, name: PREFERRED_DATE_LABELS[index], message: REQUIRED_MESSAGE });
  });
  return properties;
}

/** Spec 5: Remove is disabled when only one preferred date remains. */
export function canRemovePreferredDate(count: number): boolean {
  return count > MIN_PREFERRED_DATES;
}

/** Spec 5: another preferred date may be added below the maximum of 3. */
export function canAddPreferredDate(count: number): boolean {
  return count < MAX_PREFERRED_DATES;
}

/** Spec 3 "Invoice details". */
export interface InvoiceDetails {
  billing_name?: string | null;
  billing_email?: string | null;
  vat_number?: string | null;
  invoice_ref?: string | null;
  billing_address?: string | null;
  recipient_instructions?: string | null;
  due_date?: number | null;
}

/** Spec 2.14: invoice form labels. */
export const INVOICE_FIELD_LABELS = {
  billing_name: 'Business or Billing Name',
  billing_email: 'Billing Email',
  vat_number: 'Your Tax / VAT number',
  recipient_instructions: 'Additional billing instructions / PO number',
  billing_address: 'Billing Address',
} as const;

/**
 * Spec 5: billing name and billing address are required; a billing email, when
 * given, must pass the e-mail rules. Keys are '{pathPrefix}.{field}'.
 */
export function validateInvoiceDetails(details: InvoiceDetails | null | undefined, pathPrefix = 'payload'): ProblemProperty[] {
  const value = details ?? {};
  const key = (field: string) => (pathPrefix ? `${pathPrefix}.${field}` : field);
  const properties: ProblemProperty[] = [];
  if (!value.billing_name?.trim()) properties.push({ key: key('billing_name'), name: INVOICE_FIELD_LABELS.billing_name, message: REQUIRED_MESSAGE });
  if (!value.billing_address?.trim()) properties.push({ key: key('billing_address'), name: INVOICE_FIELD_LABELS.billing_address, message: REQUIRED_MESSAGE });
  if (value.billing_email?.trim()) {
    const message = validateEmail(value.billing_email.trim());
    if (message) properties.push({ key: key('billing_email'), name: INVOICE_FIELD_LABELS.billing_email, message });
  }
  return properties;
}

/** Spec 6: the marketing consent checkbox is hidden when hide_marketing_consent is set. */
export function showMarketingConsent(featureFlags: { hide_marketing_consent?: boolean | null } | null | undefined): boolean {
  return !featureFlags?.hide_marketing_consent;
}

/** Spec 6: the consent checkbox is unchecked by default. */
export const MARKETING_CONSENT_DEFAULT = false;

/** Spec 6: the consent label: marketplace vs any other context or origin. */
export function marketingConsentLabel(context: AppContext | CheckoutOrigin, educatorName: string): string {
  return context === 'marketplace'
    ? "It's ok to send me occasional recommendations by email."
    : `I'm happy to receive occasional emails from ${educatorName}.`;
}

/** On-demand and blended courses are enrolled in rather than attended (spec 2.14). */
function isEnrolment(courseType: string | null | undefined): boolean {
  return courseType === 'on-demand' || courseType === 'blended';
}

/**
 * Spec 2.14: the booker question when the course captures guests:
 * "Will you attend this {keyword|course}?", or for on-demand and blended
 * "Do you wish to enroll yourself into this {keyword|course}?".
 */
export function attendeeQuestion(course: { type?: string | null; keyword?: string | null }): string {
  const keyword = courseKeyword(course);
  return isEnrolment(course.type) ? `Do you wish to enroll yourself into this ${keyword}?` : `Will you attend this ${keyword}?`;
}

/** Spec 2.14: the answers: Yes, and "No, I am booking for someone else" / "No, I wish to enroll someone else". */
export function attendeeAnswers(courseType: string | null | undefined): { yes: string; no: string } {
  return { yes: 'Yes', no: isEnrolment(courseType) ? 'No, I wish to enroll someone else' : 'No, I am booking for someone else' };
}

/** Spec 2.14: "Attendee N Details", or "Participant N Details" for on-demand (N from 1). */
export function attendeeHeading(courseType: string | null | undefined, index1: number): string {
  return courseType === 'on-demand' ? `Participant ${index1} Details` : `Attendee ${index1} Details`;
}

/** Spec 6: attendee details are captured only when the course has capture_guests. */
export function capturesGuests(course: { capture_guests?: boolean | null }): boolean {
  return course.capture_guests === true;
}
