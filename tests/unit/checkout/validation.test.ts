import { describe, expect, it } from 'vitest';
import {
  BOOKER_RESPONSE_PATH,
  TERMS_MESSAGE,
  assertKnownUser,
  attendeeAnswers,
  attendeeHeading,
  attendeeQuestion,
  attendeeResponsePath,
  canAddPreferredDate,
  canRemovePreferredDate,
  capturesGuests,
  defaultForm,
  displayedFields,
  isAnswered,
  isFieldLocked,
  marketingConsentLabel,
  requiredFieldIds,
  showMarketingConsent,
  termsPreAccepted,
  validateFormResponse,
  validateInvoiceDetails,
  validatePreferredDates,
  validateTerms,
  type FormDefinition,
} from '../../../src/domain/checkout/validation.ts';
import { problems } from '../../../src/domain/problems.ts';
import { catchProblem } from '../helpers.ts';

describe('terms (spec 5)', () => {
  it('must be accepted, with the exact message', () => {
    expect(TERMS_MESSAGE).toBe('Please accept the Terms and Conditions to continue');
    expect(validateTerms({ termsAccepted: false, origin: 'marketplace' })).toBe(TERMS_MESSAGE);
    expect(validateTerms({ termsAccepted: undefined, origin: 'embed' })).toBe(TERMS_MESSAGE);
    expect(validateTerms({ termsAccepted: true, origin: 'embed' })).toBeNull();
  });
  it('hide_terms pre-accepts off the marketplace only', () => {
    expect(termsPreAccepted({ hideTerms: true, origin: 'embed' })).toBe(true);
    expect(termsPreAccepted({ hideTerms: true, origin: 'landing_page' })).toBe(true);
    expect(termsPreAccepted({ hideTerms: true, origin: 'marketplace' })).toBe(false);
    expect(termsPreAccepted({ hideTerms: false, origin: 'embed' })).toBe(false);
    expect(validateTerms({ termsAccepted: false, hideTerms: true, origin: 'embed' })).toBeNull();
    expect(validateTerms({ termsAccepted: false, hideTerms: true, origin: 'marketplace' })).toBe(TERMS_MESSAGE);
  });
});

const form: FormDefinition = {
  fields: [
    { _id: 'system_first_name', label: 'First Name', data_type: 'first_name' },
    { _id: 'system_last_name', label: 'Last Name', data_type: 'last_name' },
    { _id: 'system_email', label: 'Email', data_type: 'email' },
    { _id: 'company', label: 'Company', data_type: 'text' },
    { _id: 'diet', label: 'Dietary needs', data_type: 'textarea' },
    { _id: 'phone', label: 'Mobile', data_type: 'tel' },
    { _id: 'photo_ok', label: 'Photo consent', data_type: 'boolean' },
    { _id: 'intro', label: 'Please read', data_type: 'statement' },
    { _id: 'educator_marketing_consent', label: 'Marketing', data_type: 'boolean' },
  ],
  validations: [
    { field_ref: 'company', condition: 'required', value: true },
    { field_ref: 'diet', condition: 'required', value: false },
    { field_ref: 'photo_ok', condition: 'required', value: true },
    { field_ref: 'phone', condition: 'min', value: true },
  ],
};

describe('required fields (spec 5)', () => {
  it('system fields always, plus required=true validations', () => {
    expect(requiredFieldIds(form)).toEqual(['system_first_name', 'system_last_name', 'system_email', 'company', 'photo_ok']);
    expect(requiredFieldIds({ fields: [] })).toEqual(['system_first_name', 'system_last_name', 'system_email']);
  });
  it('marketing consent field removed from displayed forms; booker email locked', () => {
    expect(displayedFields(form).map((f) => f._id)).not.toContain('educator_marketing_consent');
    expect(displayedFields(form)).toHaveLength(8);
    expect(isFieldLocked('system_email', 'booker')).toBe(true);
    expect(isFieldLocked('system_email', 'attendee')).toBe(false);
  });
  it('default form', () => {
    expect(defaultForm().fields.map((f) => [f._id, f.label])).toEqual([
      ['system_first_name', 'First Name'],
      ['system_last_name', 'Last Name'],
      ['system_email', 'Email'],
    ]);
  });
  it('isAnswered', () => {
    expect(isAnswered(' ')).toBe(false);
    expect(isAnswered([])).toBe(false);
    expect(isAnswered(0)).toBe(true);
    expect(isAnswered(false, 'boolean')).toBe(false);
    expect(isAnswered(true, 'boolean')).toBe(true);
  });
});

describe('validateFormResponse (spec 5 / 8)', () => {
  const complete = {
    system_first_name: 'Ada',
    system_last_name: 'Lovelace',
    system_email: 'ada@example.com',
    company: 'Analytical Engines',
    photo_ok: true,
  };
  it('a complete response has no properties', () => {
    expect(validateFormResponse(form, complete, BOOKER_RESPONSE_PATH)).toEqual([]);
  });
  it('keys nested under the path prefix, named by the field label', () => {
    expect(validateFormResponse(form, { ...complete, company: '', system_first_name: '  ' }, BOOKER_RESPONSE_PATH)).toEqual([
      { key: 'payload.bookerFormResponse.system_first_name', name: 'First Name', message: 'is required' },
      { key: 'payload.bookerFormResponse.company', name: 'Company', message: 'is required' },
    ]);
    expect(validateFormResponse(form, { ...complete, system_email: undefined }, attendeeResponsePath(1))).toEqual([
      { key: 'payload.attendeeFormResponses.1.system_email', name: 'Email', message: 'is required' },
    ]);
  });
  it('a required boolean must be true; optional fields may be empty', () => {
    expect(validateFormResponse(form, { ...complete, photo_ok: false }, 'p').map((p) => p.key)).toEqual(['p.photo_ok']);
    expect(validateFormResponse(form, { ...complete, diet: '' }, 'p')).toEqual([]);
  });
  it('system fields are required even when missing from the form', () => {
    expect(validateFormResponse({ fields: [] }, {}, 'p')).toEqual([
      { key: 'p.system_first_name', name: 'First Name', message: 'is required' },
      { key: 'p.system_last_name', name: 'Last Name', message: 'is required' },
      { key: 'p.system_email', name: 'Email', message: 'is required' },
    ]);
  });
  it('email and tel answers follow the spec 5 rules', () => {
    expect(validateFormResponse(form, { ...complete, system_email: 'ada@localhost', phone: '12' }, 'p')).toEqual([
      { key: 'p.system_email', name: 'Email', message: 'Invalid email domain.' },
      { key: 'p.phone', name: 'Mobile', message: 'Phone number is too short.' },
    ]);
  });
  it('properties produce the default validation detail', () => {
    const properties = validateFormResponse(form, { ...complete, company: '' }, BOOKER_RESPONSE_PATH);
    expect(problems.validation(properties).detail).toBe('Company is required');
  });
  it('"Unknown user" without a logged-in id', () => {
    expect(catchProblem(() => assertKnownUser(undefined)).title).toBe('Unknown user');
    expect(() => assertKnownUser('u1')).not.toThrow();
  });
});

describe('preferred dates (spec 5): 1 to 3, each required', () => {
  it('counts and empty inputs', () => {
    expect(validatePreferredDates(['2024-05-01'])).toEqual([]);
    expect(validatePreferredDates(['2024-05-01', '2024-05-02', '2024-05-03'])).toEqual([]);
    expect(validatePreferredDates([])).toEqual([{ key: 'payload.preferredDates', name: 'Preferred Dates', message: 'must include at least 1 date' }]);
    expect(validatePreferredDates(['a', 'b', 'c', 'd'])[0].message).toBe('must include at most 3 dates');
    expect(validatePreferredDates(['2024-05-01', ''])).toEqual([{ key: 'payload.preferredDates.1', name: 'Second choice', message: 'is required' }]);
  });
  it('Remove disabled at one date; Add up to three', () => {
    expect(canRemovePreferredDate(1)).toBe(false);
    expect(canRemovePreferredDate(2)).toBe(true);
    expect(canAddPreferredDate(2)).toBe(true);
    expect(canAddPreferredDate(3)).toBe(false);
  });
});

describe('invoice details (spec 5)', () => {
  it('billing name and billing address are required', () => {
    expect(validateInvoiceDetails({ billing_name: 'Acme Ltd', billing_address: '1 High St' })).toEqual([]);
    expect(validateInvoiceDetails({})).toEqual([
      { key: 'payload.billing_name', name: 'Business or Billing Name', message: 'is required' },
      { key: 'payload.billing_address', name: 'Billing Address', message: 'is required' },
    ]);
    expect(validateInvoiceDetails({ billing_name: 'A', billing_address: 'B', billing_email: 'nope' })).toEqual([
      { key: 'payload.billing_email', name: 'Billing Email', message: 'Email address must contain an @ symbol.' },
    ]);
  });
});

describe('marketing consent (spec 6)', () => {
  it('label per context', () => {
    expect(marketingConsentLabel('marketplace', 'Acme')).toBe("It's ok to send me occasional recommendations by email.");
    expect(marketingConsentLabel('minisite', 'Acme')).toBe("I'm happy to receive occasional emails from Acme.");
    expect(marketingConsentLabel('embed', 'Acme')).toBe("I'm happy to receive occasional emails from Acme.");
    expect(marketingConsentLabel('landing_page', 'Acme')).toBe("I'm happy to receive occasional emails from Acme.");
  });
  it('hidden with hide_marketing_consent', () => {
    expect(showMarketingConsent({ hide_marketing_consent: true })).toBe(false);
    expect(showMarketingConsent({})).toBe(true);
    expect(showMarketingConsent(null)).toBe(true);
  });
});

describe('attendees (spec 2.14)', () => {
  it('question per course type', () => {
    expect(attendeeQuestion({ type: 'class' })).toBe('Will you attend this course?');
    expect(attendeeQuestion({ type: 'class', keyword: 'workshop' })).toBe('Will you attend this workshop?');
    expect(attendeeQuestion({ type: 'on-demand' })).toBe('Do you wish to enroll yourself into this course?');
    expect(attendeeQuestion({ type: 'blended', keyword: 'programme' })).toBe('Do you wish to enroll yourself into this programme?');
  });
  it('answers', () => {
    expect(attendeeAnswers('class')).toEqual({ yes: 'Yes', no: 'No, I am booking for someone else' });
    expect(attendeeAnswers('on-demand')).toEqual({ yes: 'Yes', no: 'No, I wish to enroll someone else' });
  });
  it('headings', () => {
    expect(attendeeHeading('class', 1)).toBe('Attendee 1 Details');
    expect(attendeeHeading('blended', 2)).toBe('Attendee 2 Details');
    expect(attendeeHeading('on-demand', 3)).toBe('Participant 3 Details');
  });
  it('captured only with capture_guests', () => {
    expect(capturesGuests({ capture_guests: true })).toBe(true);
    expect(capturesGuests({})).toBe(false);
  });
});
