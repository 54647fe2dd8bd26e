/**
 * Enquiry and waitlist forms (spec 2.9, 2.10, 3 "Enquiry payload", 5 "Enquiry and waitlist").
 */
import type { ProblemProperty } from './problems.ts';
import { validateEmail } from './email.ts';
import { phoneError } from './phone.ts';

export type EnquiryKind = 'message' | 'waitlist';

export interface EnquiryValues {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  phone?: string | null;
  message?: string | null;
  enquiry_type?: string | null;
}

/** Field labels as shown on the forms. */
export const ENQUIRY_FIELD_LABELS: Readonly<Record<keyof EnquiryValues, string>> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Telephone',
  message: 'Message',
  enquiry_type: 'Enquiry Type',
};

/** Not given by the spec ("exact messages are not shown"): chosen message for an empty required field. */
export const REQUIRED_MESSAGE = 'is required';

/**
 * Spec 5: enquiry requires first name, last name, email, telephone and message,
 * plus the enquiry type when the educator defines types; waitlist requires
 * first name, last name, email and telephone.
 */
export function requiredEnquiryFields(kind: EnquiryKind, enquiryTypesShown = false): (keyof EnquiryValues)[] {
  if (kind === 'waitlist') return ['first_name', 'last_name', 'email', 'phone'];
  const fields: (keyof EnquiryValues)[] = ['first_name', 'last_name', 'email', 'phone', 'message'];
  if (enquiryTypesShown) fields.push('enquiry_type');
  return fields;
}

/**
 * Spec 5: the invalid fields of an enquiry or waitlist form (empty required
 * fields, then a malformed email or phone number, with the spec 5 messages).
 * The form does not submit while this is non-empty.
 */
export function validateEnquiry(values: EnquiryValues, kind: EnquiryKind, enquiryTypesShown = false): ProblemProperty[] {
  const properties: ProblemProperty[] = [];
  for (const key of requiredEnquiryFields(kind, enquiryTypesShown)) {
    const value = values[key];
    if (typeof value !== 'string' || value.trim() === '') {
      properties.push({ key, name: ENQUIRY_FIELD_LABELS[key], message: REQUIRED_MESSAGE });
      continue;
    }
    if (key === 'email') {
      const message = validateEmail(value.trim());
      if (message) properties.push({ key, name: ENQUIRY_FIELD_LABELS[key], message });
    }
    if (key === 'phone') {
      const message = phoneError(value);
      if (message) properties.push({ key, name: ENQUIRY_FIELD_LABELS[key], message });
    }
  }
  return properties;
}

/** Spec 2.9: course_ref and course_name are attached only when both are present. */
export function enquiryCourseDetails(params: { course_ref?: string | null; course_name?: string | null }): { course_ref: string; course_name: string } | null {
  if (!params.course_ref || !params.course_name) return null;
  return { course_ref: params.course_ref, course_name: params.course_name };
}

/** Spec 2.10: "Back to course" shows when course_ref and educator_slug are present. */
export function showBackToCourse(params: { course_ref?: string | null; educator_slug?: string | null }): boolean {
  return !!params.course_ref && !!params.educator_slug;
}

/** Spec 2.9 helper text. */
export function enquiryHelperText(educatorName: string): string {
  return `Contact ${educatorName} to ask any questions or clarify any details.`;
}

/** Spec 2.9 / 2.10 success texts. */
export function enquirySuccessText(kind: EnquiryKind, firstName: string): { title: string; body: string } {
  return kind === 'waitlist'
    ? {
        title: "You're on the waitlist!",
        body: `Thank you ${firstName} for joining the waitlist. You will be notified when new dates or spaces become available.`,
      }
    : {
        title: 'Thanks for contacting us',
        body: `Thank you ${firstName} for contacting us. We have received your message and someone will be in touch soon.`,
      };
}
