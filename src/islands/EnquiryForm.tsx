/**
 * Enquiry (spec 2.9) and waitlist (spec 2.10) forms: idle → submitting → success | error (spec 4).
 * Re-submission is blocked while submitting; the form does not submit while invalid (spec 5, rules
 * from src/domain/enquiry.ts); errors show a danger alert with the error's detail or title (spec 8);
 * success replaces the form with the success screen and the "More listings from {educator}" carousel.
 * The captcha is invisible: solved in the background from the first interaction (src/lib/captcha.ts).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type SubmitEvent, type ReactElement, type RefObject } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { postEnquiry, ApiError, type EnquiryPayload } from '../lib/api.ts';
import { createCaptcha } from '../lib/captcha.ts';
import {
  validateEnquiry, enquiryHelperText, enquirySuccessText, REQUIRED_MESSAGE, type EnquiryKind, type EnquiryValues,
} from '../domain/enquiry.ts';
import { backToCourseLink, enquiryCourse, type EnquiryQuery } from '../domain/enquiry-course.ts';
import type { ProblemProperty } from '../domain/problems.ts';
import CourseCarousel from '../components/CourseCarousel.tsx';

export interface EnquiryFormProps {
  kind: EnquiryKind;
  educator: { id: string; slug: string; name: string };
  /** Spec 3 "Enquiry types": option value is the label; the select shows only when there are some. */
  enquiryTypes: string[];
  links: LinkContext;
  /** The educator's published courses, to resolve course_ref (id or slug) to a slug and name. */
  courses: { id: string; slug: string; name: string }[];
  /** Success-screen carousel. */
  listings: CourseCard[];
  /** 'View all listings by {educator}' target (the courses link). */
  coursesHref: string;
  /** Heading level of the form's title (1 on its own page). */
  headingLevel?: 1 | 2;
}

type Status = 'idle' | 'submitting' | 'success' | 'error';
type FieldKey = keyof EnquiryValues;
type Values = Required<Record<FieldKey, string>>;

/** Form order, to focus the first invalid field. */
const FIELD_ORDER: FieldKey[] = ['enquiry_type', 'first_name', 'last_name', 'email', 'phone', 'message'];

const EMPTY: Values = { first_name: '', last_name: '', email: '', phone: '', message: '', enquiry_type: '' };

/** The course the form is about, read from the address once hydrated (nothing in the pre-rendered form). */
function useEnquiryQuery(): EnquiryQuery {
  const [params, setParams] = useState<EnquiryQuery>({ course_ref: null, course_name: null, educator_slug: null, occurrence: null });
  // A layout effect, so the course is known before any submit can reach the hydrated form.
  useLayoutEffect(() => {
    const q = new URLSearchParams(window.location.search);
    setParams({ course_ref: q.get('course_ref'), course_name: q.get('course_name'), educator_slug: q.get('educator_slug'), occurrence: q.get('occurrence') });
  }, []);
  return params;
}

/** What POST /api/enquiries is sent: the trimmed fields, and the course and occurrence the address names. */
function enquiryPayload(form: EnquiryFormProps, values: Values, params: EnquiryQuery, captchaToken: string): EnquiryPayload {
  const { kind, educator, enquiryTypes, links, courses } = form;
  const { courseSlug, courseName } = enquiryCourse(kind, params, courses);
  return {
    contact_details: {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
    },
    details: {
      message: kind === 'message' ? values.message.trim() : '',
      embedded: links.context === 'embed',
      course_slug: courseSlug,
      course_name: courseName,
      enquiry_type: kind === 'message' && enquiryTypes.length > 0 ? values.enquiry_type || null : null,
      occurrence_ref: params.occurrence,
    },
    type: kind,
    educator_slug: educator.slug,
    captchaToken,
  };
}

/**
 * Sending the form: invalid fields are shown and the first focused; a valid form is sent once at a time, and the
 * outcome (the error alert, the success heading) takes the focus.
 */
function useEnquirySubmit(form: EnquiryFormProps, values: Values, params: EnquiryQuery, problems: ProblemProperty[]) {
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [firstName, setFirstName] = useState('');
  const captcha = useMemo(() => createCaptcha(), []);
  const sending = useRef(false);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (status === 'error') alertRef.current?.focus();
    if (status === 'success') successRef.current?.focus();
  }, [status]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return; // spec 4: re-submission blocked while submitting
    setSubmitted(true);
    if (problems.length > 0) {
      const first = FIELD_ORDER.find((key) => problems.some((p) => p.key === key));
      if (first) document.getElementById(`${form.kind}-${first}`)?.focus();
      return;
    }
    sending.current = true;
    setStatus('submitting');
    setError(null);
    try {
      await postEnquiry(enquiryPayload(form, values, params, await captcha.take()));
      // The 'Enquriy Sumbitted' analytics event (spec 1) is recorded by POST /api/enquiries with the enquiry itself.
      setFirstName(values.first_name.trim());
      setStatus('success');
    } catch (err) {
      setError(err instanceof ApiError ? err.shown : err instanceof Error ? err.message : 'Something went wrong');
      setStatus('error');
    } finally {
      sending.current = false;
    }
  }

  return { status, error, submitted, firstName, captcha, alertRef, successRef, onSubmit };
}

type HeadingTag = 'h1' | 'h2';

function EnquirySuccess({ form, firstName, Heading, headingRef }: { form: EnquiryFormProps; firstName: string; Heading: HeadingTag; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { kind, educator, links, listings, coursesHref } = form;
  const text = enquirySuccessText(kind, firstName);
  return (
    <div className="enquiry-success">
      <div className="panel">
        <Heading ref={headingRef} tabIndex={-1}>{text.title}</Heading>
        <p style={{ margin: 0 }}>{text.body}</p>
      </div>
      {listings.length > 0 && (
        <CourseCarousel
          id={`${kind}-listings`}
          title={`More listings from ${educator.name}`}
          cards={listings}
          links={links}
          variant="compact"
          end={{ text: `View all listings by ${educator.name}`, href: coursesHref }}
        />
      )}
    </div>
  );
}

/** A labelled field and its error, shown once the form has been submitted. */
function EnquiryField({ id, label, message, children }: { id: string; label: string; message: string | null; children: ReactElement }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {message && <span className="field__error" id={`${id}-error`}>{message}</span>}
    </div>
  );
}

export default function EnquiryForm(props: EnquiryFormProps) {
  const { kind, educator, enquiryTypes, links, courses, headingLevel = 1 } = props;
  const [values, setValues] = useState(EMPTY);
  const params = useEnquiryQuery();
  const typesShown = enquiryTypes.length > 0;
  const problems = validateEnquiry(values, kind, typesShown);
  const { status, error, submitted, firstName, captcha, alertRef, successRef, onSubmit } = useEnquirySubmit(props, values, params, problems);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  if (status === 'success') return <EnquirySuccess form={props} firstName={firstName} Heading={Heading} headingRef={successRef} />;

  const errorOf = (key: FieldKey): string | null => {
    if (!submitted) return null;
    const p = problems.find((item) => item.key === key);
    if (!p) return null;
    return p.message === REQUIRED_MESSAGE ? `${p.name} ${p.message}` : p.message;
  };
  const field = (key: FieldKey, label: string, input: ReactElement) => (
    <EnquiryField id={`${kind}-${key}`} label={label} message={errorOf(key)}>{input}</EnquiryField>
  );
  const inputProps = (key: FieldKey) => ({
    id: `${kind}-${key}`,
    name: key,
    value: values[key],
    required: true,
    'aria-invalid': errorOf(key) ? true : undefined,
    'aria-describedby': errorOf(key) ? `${kind}-${key}-error` : undefined,
    onChange: (e: { target: { value: string } }) => setValues((current) => ({ ...current, [key]: e.target.value })),
  });

  const back = backToCourseLink(kind, params, courses, links);
  const isWaitlist = kind === 'waitlist';
  return (
    <div className="enquiry">
      {back && <p><a href={back.href} {...(back.newTab ? { target: '_blank', rel: 'noopener' } : {})}>‹ Back to course</a></p>}
      <Heading>{isWaitlist ? 'Join the waitlist' : 'Send a message'}</Heading>
      <p className="muted">
        {isWaitlist
          ? 'Want to be notified when dates for this course become available? Enter your details below to join the waitlist.'
          : enquiryHelperText(educator.name)}
      </p>
      <form className="form panel" noValidate onSubmit={onSubmit} onFocus={() => captcha.prepare()} aria-busy={status === 'submitting'}>
        {error && <p className="alert alert--danger" role="alert" tabIndex={-1} ref={alertRef}>{error}</p>}
        {!isWaitlist && typesShown && field('enquiry_type', 'Enquiry Type', (
          <select {...inputProps('enquiry_type')}>
            <option value="">Select an enquiry type</option>
            {enquiryTypes.map((label) => <option key={label} value={label}>{label}</option>)}
          </select>
        ))}
        <div className="form__row form__row--2">
          {field('first_name', 'First name', <input type="text" autoComplete="given-name" {...inputProps('first_name')} />)}
          {field('last_name', 'Last name', <input type="text" autoComplete="family-name" {...inputProps('last_name')} />)}
        </div>
        <div className="form__row form__row--2">
          {field('email', 'Email', <input type="email" autoComplete="email" inputMode="email" {...inputProps('email')} />)}
          {field('phone', 'Telephone', <input type="tel" autoComplete="tel" inputMode="tel" {...inputProps('phone')} />)}
        </div>
        {!isWaitlist && field('message', 'Message', <textarea rows={6} {...inputProps('message')} />)}
        <div>
          <button type="submit" className="btn" disabled={status === 'submitting'}>
            {isWaitlist ? 'Join Waitlist' : 'Send message'}
          </button>
        </div>
      </form>
    </div>
  );
}
