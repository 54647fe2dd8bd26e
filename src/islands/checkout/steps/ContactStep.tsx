/**
 * Spec 2.14 "Contact Info" (5, 6): "You are logged in as {email}" with Log out (/logout?redirect={current url});
 * the booker form (initial values from student metadata; the e-mail not editable); when the course captures
 * guests, the attend question and "Attendee N Details" ("Participant N Details" for on-demand) forms; the
 * marketing consent checkbox (hidden by hide_marketing_consent, unchecked by default); the terms checkbox
 * "I accept the Terms and Privacy Policy *" opening the Terms dialog (pre-accepted and hidden with hide_terms
 * off the marketplace). Continue submits "contact details filled" ("order contact details filled" in order).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $error, showProblem, submitAction } from '../../../stores/checkout.ts';
import { $identity } from '../identity.ts';
import { STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { loggedInAsText } from '../../../domain/checkout/messages.ts';
import { TERMS_CHECKBOX_LABEL } from '../../../domain/checkout/constants.ts';
import {
  ATTENDEE_RESPONSES_PATH, BOOKER_RESPONSE_PATH, MARKETING_CONSENT_DEFAULT, attendeeAnswers, attendeeHeading, attendeeQuestion, attendeeResponsePath, capturesGuests,
  defaultForm, marketingConsentLabel, showMarketingConsent, termsPreAccepted, validateFormResponse, validateTerms, type FormResponse,
} from '../../../domain/checkout/validation.ts';
import { logoutUrl } from '../../../domain/links.ts';
import { problems, type Problem, type ProblemProperty } from '../../../domain/problems.ts';
import { attendeeFormCount, fieldDomId, requestedSpacesOf } from '../../../domain/checkout/ui.ts';
import { stepStateOf, type StepStates } from '../../../domain/checkout/step-state.ts';
import { contactAction, flowRules } from '../../../domain/checkout/flows.ts';
import { checkoutApi } from '../api.ts';
import type { CheckoutBootstrap, FormView } from '../types.ts';
import FormRenderer from './FormRenderer.tsx';
import { TermsDialog, type TermsDialogHandle } from './TermsDialog.tsx';
import { Spinner, StepForm, StepHeading, useContinue } from '../shared.tsx';

/** "I accept the Terms and Privacy Policy *" with "Terms" opening the dialog and "Privacy Policy" linking to /privacy. */
const TERMS_LABEL = (() => {
  const [before, rest] = TERMS_CHECKBOX_LABEL.split('Terms');
  const [between, after] = rest.split('Privacy Policy');
  return { before, between, after };
})();

async function loadForm(formId: string): Promise<FormView> {
  try {
    return await checkoutApi.form(formId);
  } catch {
    return { _id: formId, ...defaultForm() };
  }
}

type ContactCourse = NonNullable<CheckoutBootstrap['course']>;

/** Whether the server refused answers to the forms (spec 5: it validates them with the form as saved now). */
function refusesFormAnswers(problem: Problem | null): boolean {
  return (problem?.properties ?? []).some((p) => p.key.startsWith(BOOKER_RESPONSE_PATH) || p.key.startsWith(ATTENDEE_RESPONSES_PATH));
}

/**
 * The booker and attendee forms as the educator saved them, with the learner's earlier answers (spec 3 student
 * metadata) merged into the booker's. `reload` reads the forms again: an educator may change a form while a learner
 * fills it in, and the server then validates with the saved one, so a refusal of the answers asks for the forms anew.
 */
function useContactForms(course: ContactCourse, guests: boolean, hadStoredBooker: boolean, setBooker: (update: (current: FormResponse) => FormResponse) => void) {
  const [bookerForm, setBookerForm] = useState<FormView | null>(null);
  const [attendeeForm, setAttendeeForm] = useState<FormView | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const [form, guestForm] = await Promise.all([
        loadForm(course.bookerFormId),
        guests ? (course.attendeeFormId === course.bookerFormId ? null : loadForm(course.attendeeFormId)) : null,
      ]);
      if (cancelled) return;
      if (!hadStoredBooker && generation === 0) {
        // Spec 3: the learner's student metadata gives the initial values.
        try {
          const meta = await checkoutApi.studentMetadata(course.bookerFormId);
          const values = (meta?.values ?? meta ?? {}) as FormResponse;
          if (!cancelled) setBooker((current) => ({ ...values, ...current }));
        } catch {
          /* no earlier answers */
        }
      }
      if (cancelled) return;
      setBookerForm(form);
      setAttendeeForm(guestForm ?? form);
    })();
    return () => {
      cancelled = true;
    };
  }, [course.bookerFormId, course.attendeeFormId, guests, hadStoredBooker, generation, setBooker]);

  return { bookerForm, attendeeForm, reload: () => setGeneration((n) => n + 1) };
}

/** Spec 5: the booker's answers and each attendee's, the attend question, consent and terms, as the learner edits them. */
function useContactAnswers(stored: StepStates['contactDetails'] | null, preAccepted: boolean) {
  const [booker, setBooker] = useState<FormResponse>(stored?.booker?.formResponse ?? {});
  // Whether earlier answers existed when the step opened: only then are the learner's saved details not asked for.
  const [hadStoredBooker] = useState(!!stored?.booker?.formResponse);
  const [attending, setAttending] = useState<boolean>(stored?.booker?.isAttending ?? true);
  const [attendees, setAttendees] = useState<FormResponse[]>((stored?.attendees ?? []).map((a) => a.formResponse ?? {}));
  const [consent, setConsent] = useState<boolean>(stored?.marketingConsent ?? MARKETING_CONSENT_DEFAULT);
  const [terms, setTerms] = useState<boolean>(preAccepted || !!stored?.termsAccepted);
  const setAttendee = useCallback((i: number, values: FormResponse) => setAttendees((list) => {
    const next = [...list];
    while (next.length <= i) next.push({});
    next[i] = values;
    return next;
  }), []);
  return { booker, setBooker, hadStoredBooker, attending, setAttending, attendees, setAttendee, consent, setConsent, terms, setTerms };
}

function AttendingQuestion({ course, attending, onChange }: { course: ContactCourse; attending: boolean; onChange: (attending: boolean) => void }) {
  const answers = attendeeAnswers(course.type);
  return (
    <fieldset className="radio-group">
      <legend>{attendeeQuestion(course)}</legend>
      <label className="radio-option">
        <input type="radio" name="booker-attending" checked={attending} onChange={() => onChange(true)} />
        <span>{answers.yes}</span>
      </label>
      <label className="radio-option">
        <input type="radio" name="booker-attending" checked={!attending} onChange={() => onChange(false)} />
        <span>{answers.no}</span>
      </label>
    </fieldset>
  );
}

function TermsCheckbox({ checked, onChange, invalid, educator, productName }: {
  checked: boolean; onChange: (checked: boolean) => void; invalid: boolean; educator: NonNullable<CheckoutBootstrap['educator']>; productName: string;
}) {
  const termsRef = useRef<TermsDialogHandle>(null);
  return (
    <div className="field field--check">
      <input
        id={fieldDomId('payload.termsAccepted')}
        type="checkbox"
        required
        aria-required="true"
        aria-invalid={invalid ? true : undefined}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={fieldDomId('payload.termsAccepted')}>
        {TERMS_LABEL.before}
        <a
          href="#terms"
          aria-haspopup="dialog"
          onClick={(e) => {
            e.preventDefault();
            termsRef.current?.open(e.currentTarget);
          }}
        >
          Terms
        </a>
        {TERMS_LABEL.between}
        <a href="/privacy" target="_blank" rel="noopener">Privacy Policy</a>
        {TERMS_LABEL.after}
      </label>
      <TermsDialog ref={termsRef} educatorName={educator.name} educatorTerms={educator.tos} productName={productName} onAgree={() => onChange(true)} />
    </div>
  );
}

/** The refusal's message for each field it names (the forms show them under their fields). */
function messagesByKey(problem: Problem | null): Record<string, string> {
  const map: Record<string, string> = {};
  for (const p of (problem?.properties ?? []) as ProblemProperty[]) map[p.key] = p.message;
  return map;
}

/** "You are logged in as {email}" and Log out, back to this page (out of the frame in the embed). */
function LoggedInAs({ email, embed }: { email: string; embed: boolean }) {
  const currentUrl = typeof window !== 'undefined' ? window.location.href : '';
  return (
    <p className="logged-in">
      {loggedInAsText(email)} <a href={logoutUrl(currentUrl)} target={embed ? '_top' : undefined}>Log out</a>
    </p>
  );
}

/** "Attendee N Details" ("Participant N Details" on demand): one attendee form per space beyond the booker's. */
function AttendeeForms({ count, courseType, form, attendees, onChange, errors }: {
  count: number; courseType: string; form: FormView; attendees: FormResponse[]; onChange: (i: number, values: FormResponse) => void; errors: Record<string, string>;
}) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <section key={i} className="stack attendee" aria-labelledby={`attendee-${i}-heading`}>
          <h3 id={`attendee-${i}-heading`}>{attendeeHeading(courseType, i + 1)}</h3>
          <FormRenderer
            form={form}
            values={attendees[i] ?? {}}
            onChange={(values) => onChange(i, values)}
            role="attendee"
            pathPrefix={attendeeResponsePath(i)}
            errors={errors}
            autocompleteSection={`attendee-${i + 1}`}
          />
        </section>
      ))}
    </>
  );
}

export default function ContactStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const identity = useStore($identity);
  const error = useStore($error);
  const course = bootstrap.course!;
  const educator = bootstrap.educator!;
  const preAccepted = termsPreAccepted({ hideTerms: educator.featureFlags.hide_terms, origin: state.origin });
  const answers = useContactAnswers(stepStateOf(state.stepState, 'contactDetails'), preAccepted);
  const { booker, attending, attendees, consent, terms } = answers;
  const guests = capturesGuests({ capture_guests: course.captureGuests });
  const { bookerForm, attendeeForm, reload } = useContactForms(course, guests, answers.hadStoredBooker, answers.setBooker);
  const attendeeCount = guests ? attendeeFormCount(requestedSpacesOf(state.stepState), attending) : 0;
  const loading = !bookerForm || (guests && !attendeeForm);
  useContinue(loading ? { enabled: false } : { enabled: true });

  // The booker's e-mail is the account's.
  const bookerValues = useMemo(() => ({ ...booker, system_email: identity.email ?? booker.system_email ?? '' }), [booker, identity.email]);

  const errors = useMemo(() => messagesByKey(error), [error]);

  async function submit() {
    if (!bookerForm) return;
    const attendeeResponses = Array.from({ length: attendeeCount }, (_, i) => attendees[i] ?? {});
    const properties: ProblemProperty[] = [...validateFormResponse(bookerForm, bookerValues, BOOKER_RESPONSE_PATH)];
    if (attendeeForm) attendeeResponses.forEach((r, i) => properties.push(...validateFormResponse(attendeeForm, r, attendeeResponsePath(i))));
    const termsMessage = validateTerms({ termsAccepted: terms, hideTerms: educator.featureFlags.hide_terms, origin: state.origin });
    if (termsMessage) properties.push({ key: 'payload.termsAccepted', name: 'Terms', message: termsMessage });
    if (properties.length > 0) {
      showProblem(problems.validation(properties));
      return;
    }
    const next = await submitAction(contactAction(flowRules(state.flow)), {
      bookerId: identity.id,
      bookerFormId: bookerForm._id ?? course.bookerFormId,
      attendeeFormId: attendeeForm?._id ?? course.attendeeFormId,
      termsAccepted: terms,
      bookerFormResponse: bookerValues,
      bookerIsAttending: guests ? attending : true,
      attendeeFormResponses: attendeeResponses,
      marketingConsent: showMarketingConsent(educator.featureFlags) ? consent : false,
    });
    // The answers passed the forms this screen holds but not the server's: the educator changed a form meanwhile.
    // Read the forms again, so the learner sees what is asked now (the refusal's messages stay on its fields).
    if (!next && refusesFormAnswers($error.get())) reload();
  }

  return (
    <StepForm onSubmit={() => void submit()}>
      <StepHeading>{STEP_LABELS.contactDetails}</StepHeading>
      {identity.email && <LoggedInAs email={identity.email} embed={bootstrap.context === 'embed'} />}
      {loading ? (
        <Spinner label="Loading the form" />
      ) : (
        <>
          <section className="stack" aria-labelledby="booker-heading">
            <h3 id="booker-heading">Your details</h3>
            <FormRenderer form={bookerForm!} values={bookerValues} onChange={answers.setBooker} role="booker" pathPrefix={BOOKER_RESPONSE_PATH} errors={errors} />
          </section>
          {guests && <AttendingQuestion course={course} attending={attending} onChange={answers.setAttending} />}
          <AttendeeForms count={attendeeCount} courseType={course.type} form={attendeeForm!} attendees={attendees} onChange={answers.setAttendee} errors={errors} />
          {showMarketingConsent(educator.featureFlags) && (
            <div className="field field--check">
              <input id="cf-marketing-consent" type="checkbox" checked={consent} onChange={(e) => answers.setConsent(e.target.checked)} />
              <label htmlFor="cf-marketing-consent">{marketingConsentLabel(state.origin, educator.name)}</label>
            </div>
          )}
          {!preAccepted && (
            <TermsCheckbox checked={terms} onChange={answers.setTerms} invalid={!!errors['payload.termsAccepted']} educator={educator} productName={bootstrap.productName} />
          )}
        </>
      )}
    </StepForm>
  );
}
