/**
 * Spec 2.14 "Contact Info" (5, 6): "You are logged in as {email}" with Log out (/logout?redirect={current url});
 * the booker form (initial values from student metadata; the e-mail not editable); when the course captures
 * guests, the attend question and "Attendee N Details" ("Participant N Details" for on-demand) forms; the
 * marketing consent checkbox (hidden by hide_marketing_consent, unchecked by default); the terms checkbox
 * "I accept the Terms and Privacy Policy *" opening the Terms dialog (pre-accepted and hidden with hide_terms
 * off the marketplace). Continue submits "contact details filled" ("order contact details filled" in order).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $error, showProblem, submitAction } from '../../../stores/checkout.ts';
import { $identity } from '../identity.ts';
import { STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { loggedInAsText } from '../../../domain/checkout/messages.ts';
import { TERMS_CHECKBOX_LABEL } from '../../../domain/checkout/constants.ts';
import {
  BOOKER_RESPONSE_PATH, MARKETING_CONSENT_DEFAULT, attendeeAnswers, attendeeHeading, attendeeQuestion, attendeeResponsePath, capturesGuests,
  defaultForm, marketingConsentLabel, showMarketingConsent, termsPreAccepted, validateFormResponse, validateTerms, type FormResponse,
} from '../../../domain/checkout/validation.ts';
import { logoutUrl } from '../../../domain/links.ts';
import { problems, type ProblemProperty } from '../../../domain/problems.ts';
import { attendeeFormCount, fieldDomId, requestedSpacesOf } from '../../../domain/checkout/ui.ts';
import { checkoutApi } from '../api.ts';
import type { FormView } from '../types.ts';
import FormRenderer from './FormRenderer.tsx';
import { TermsDialog, type TermsDialogHandle } from './TermsDialog.tsx';
import { Spinner, StepForm, StepHeading, useContinue } from '../shared.tsx';

interface ContactState {
  booker?: { formResponse?: FormResponse; isAttending?: boolean };
  attendees?: { formResponse?: FormResponse }[];
  marketingConsent?: boolean;
  termsAccepted?: boolean;
}

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

export default function ContactStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const identity = useStore($identity);
  const error = useStore($error);
  const course = bootstrap.course!;
  const educator = bootstrap.educator!;
  const stored = (state.stepState.contactDetails?.state ?? null) as ContactState | null;
  const [bookerForm, setBookerForm] = useState<FormView | null>(null);
  const [attendeeForm, setAttendeeForm] = useState<FormView | null>(null);
  const [booker, setBooker] = useState<FormResponse>(stored?.booker?.formResponse ?? {});
  // Whether earlier answers existed when the step opened: only then are the learner's saved details not asked for.
  const [hadStoredBooker] = useState(!!stored?.booker?.formResponse);
  const [attending, setAttending] = useState<boolean>(stored?.booker?.isAttending ?? true);
  const [attendees, setAttendees] = useState<FormResponse[]>((stored?.attendees ?? []).map((a) => a.formResponse ?? {}));
  const [consent, setConsent] = useState<boolean>(stored?.marketingConsent ?? MARKETING_CONSENT_DEFAULT);
  const preAccepted = termsPreAccepted({ hideTerms: educator.featureFlags.hide_terms, origin: state.origin });
  const [terms, setTerms] = useState<boolean>(preAccepted || !!stored?.termsAccepted);
  const termsRef = useRef<TermsDialogHandle>(null);
  const guests = capturesGuests({ capture_guests: course.captureGuests });
  const spaces = requestedSpacesOf(state.stepState);
  const attendeeCount = guests ? attendeeFormCount(spaces, attending) : 0;
  const loading = !bookerForm || (guests && !attendeeForm);
  useContinue(loading ? { enabled: false } : { enabled: true });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const [form, guestForm] = await Promise.all([
        loadForm(course.bookerFormId),
        guests ? (course.attendeeFormId === course.bookerFormId ? null : loadForm(course.attendeeFormId)) : null,
      ]);
      if (cancelled) return;
      if (!hadStoredBooker) {
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
  }, [course.bookerFormId, course.attendeeFormId, guests, hadStoredBooker]);

  // The booker's e-mail is the account's.
  const bookerValues = useMemo(() => ({ ...booker, system_email: identity.email ?? booker.system_email ?? '' }), [booker, identity.email]);

  const errors = useMemo(() => {
    const map: Record<string, string> = {};
    for (const p of (error?.properties ?? []) as ProblemProperty[]) map[p.key] = p.message;
    return map;
  }, [error]);

  function submit() {
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
    void submitAction(state.flow === 'order' ? 'order contact details filled' : 'contact details filled', {
      bookerId: identity.id,
      bookerFormId: bookerForm._id ?? course.bookerFormId,
      attendeeFormId: attendeeForm?._id ?? course.attendeeFormId,
      termsAccepted: terms,
      bookerFormResponse: bookerValues,
      bookerIsAttending: guests ? attending : true,
      attendeeFormResponses: attendeeResponses,
      marketingConsent: showMarketingConsent(educator.featureFlags) ? consent : false,
    });
  }

  const answers = attendeeAnswers(course.type);
  const currentUrl = typeof window !== 'undefined' ? window.location.href : '';

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{STEP_LABELS.contactDetails}</StepHeading>
      {identity.email && (
        <p className="logged-in">
          {loggedInAsText(identity.email)} <a href={logoutUrl(currentUrl)} target={bootstrap.context === 'embed' ? '_top' : undefined}>Log out</a>
        </p>
      )}
      {loading ? (
        <Spinner label="Loading the form" />
      ) : (
        <>
          <section className="stack" aria-labelledby="booker-heading">
            <h3 id="booker-heading">Your details</h3>
            <FormRenderer form={bookerForm!} values={bookerValues} onChange={setBooker} role="booker" pathPrefix={BOOKER_RESPONSE_PATH} errors={errors} />
          </section>
          {guests && (
            <fieldset className="radio-group">
              <legend>{attendeeQuestion(course)}</legend>
              <label className="radio-option">
                <input type="radio" name="booker-attending" checked={attending} onChange={() => setAttending(true)} />
                <span>{answers.yes}</span>
              </label>
              <label className="radio-option">
                <input type="radio" name="booker-attending" checked={!attending} onChange={() => setAttending(false)} />
                <span>{answers.no}</span>
              </label>
            </fieldset>
          )}
          {Array.from({ length: attendeeCount }, (_, i) => {
            const heading = attendeeHeading(course.type, i + 1);
            return (
              <section key={i} className="stack attendee" aria-labelledby={`attendee-${i}-heading`}>
                <h3 id={`attendee-${i}-heading`}>{heading}</h3>
                <FormRenderer
                  form={attendeeForm!}
                  values={attendees[i] ?? {}}
                  onChange={(values) => setAttendees((list) => {
                    const next = [...list];
                    while (next.length <= i) next.push({});
                    next[i] = values;
                    return next;
                  })}
                  role="attendee"
                  pathPrefix={attendeeResponsePath(i)}
                  errors={errors}
                  autocompleteSection={`attendee-${i + 1}`}
                />
              </section>
            );
          })}
          {showMarketingConsent(educator.featureFlags) && (
            <div className="field field--check">
              <input id="cf-marketing-consent" type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
              <label htmlFor="cf-marketing-consent">{marketingConsentLabel(state.origin, educator.name)}</label>
            </div>
          )}
          {!preAccepted && (
            <div className="field field--check">
              <input
                id={fieldDomId('payload.termsAccepted')}
                type="checkbox"
                required
                aria-required="true"
                aria-invalid={errors['payload.termsAccepted'] ? true : undefined}
                checked={terms}
                onChange={(e) => setTerms(e.target.checked)}
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
              <TermsDialog
                ref={termsRef}
                educatorName={educator.name}
                educatorTerms={educator.tos}
                productName={bootstrap.productName}
                onAgree={() => setTerms(true)}
              />
            </div>
          )}
        </>
      )}
    </StepForm>
  );
}
