/**
 * Enquiry (spec 2.9) and waitlist (spec 2.10) forms: idle → submitting → success | error (spec 4).
 * Re-submission is blocked while submitting; the form does not submit while invalid (spec 5, rules
 * from src/domain/enquiry.ts); errors show a danger alert with the error's detail or title (spec 8);
 * success replaces the form with the success screen and the "More listings from {educator}" carousel.
 * The captcha is invisible: solved in the background from the first interaction (src/lib/captcha.ts).
 */
import { useEffect, useMemo, useRef, useState, type SubmitEvent, type ReactElement } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { postEnquiry, ApiError } from '../lib/api.ts';
import { createCaptcha } from '../lib/captcha.ts';
import {
  validateEnquiry, enquiryHelperText, enquirySuccessText, showBackToCourse, enquiryCourseDetails,
  REQUIRED_MESSAGE, type EnquiryKind, type EnquiryValues,
} from '../domain/enquiry.ts';
import { courseLink } from '../domain/links.ts';
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

interface QueryParams {
  course_ref: string | null;
  course_name: string | null;
  educator_slug: string | null;
  occurrence: string | null;
}

/** Form order, to focus the first invalid field. */
const FIELD_ORDER: FieldKey[] = ['enquiry_type', 'first_name', 'last_name', 'email', 'phone', 'message'];

const EMPTY: Required<Record<FieldKey, string>> = { first_name: '', last_name: '', email: '', phone: '', message: '', enquiry_type: '' };

export default function EnquiryForm({ kind, educator, enquiryTypes, links, courses, listings, coursesHref, headingLevel = 1 }: EnquiryFormProps) {
  const [values, setValues] = useState(EMPTY);
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [firstName, setFirstName] = useState('');
  const [params, setParams] = useState<QueryParams>({ course_ref: null, course_name: null, educator_slug: null, occurrence: null });
  const captcha = useMemo(() => createCaptcha(), []);
  const sending = useRef(false);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);
  const typesShown = enquiryTypes.length > 0;
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    setParams({ course_ref: q.get('course_ref'), course_name: q.get('course_name'), educator_slug: q.get('educator_slug'), occurrence: q.get('occurrence') });
  }, []);

  useEffect(() => {
    if (status === 'error') alertRef.current?.focus();
    if (status === 'success') successRef.current?.focus();
  }, [status]);

  const problems = validateEnquiry(values, kind, typesShown);
  const errorOf = (key: FieldKey): string | null => {
    if (!submitted) return null;
    const p = problems.find((item) => item.key === key);
    if (!p) return null;
    return p.message === REQUIRED_MESSAGE ? `${p.name} ${p.message}` : p.message;
  };

  const findCourse = (ref: string | null) => (ref ? courses.find((c) => c.id === ref || c.slug === ref) ?? null : null);

  function set(key: FieldKey, value: string) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return; // spec 4: re-submission blocked while submitting
    setSubmitted(true);
    if (problems.length > 0) {
      const first = FIELD_ORDER.find((key) => problems.some((p) => p.key === key));
      if (first) document.getElementById(`${kind}-${first}`)?.focus();
      return;
    }
    sending.current = true;
    setStatus('submitting');
    setError(null);
    try {
      const captchaToken = await captcha.take();
      let courseSlug: string | null = null;
      let courseName: string | null = null;
      if (kind === 'message') {
        const attached = enquiryCourseDetails(params); // spec 2.9: only when both are present
        if (attached) {
          courseSlug = findCourse(attached.course_ref)?.slug ?? attached.course_ref;
          courseName = attached.course_name;
        }
      } else {
        const course = findCourse(params.course_ref);
        courseSlug = course?.slug ?? params.course_ref;
        courseName = course?.name ?? params.course_name;
      }
      await postEnquiry({
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
          enquiry_type: kind === 'message' && typesShown ? values.enquiry_type || null : null,
          occurrence_ref: params.occurrence,
        },
        type: kind,
        educator_slug: educator.slug,
        captchaToken,
      });
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

  if (status === 'success') {
    const text = enquirySuccessText(kind, firstName);
    return (
      <div className="enquiry-success">
        <div className="panel">
          <Heading ref={successRef} tabIndex={-1}>{text.title}</Heading>
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

  const back = kind === 'waitlist' && showBackToCourse(params) && params.educator_slug
    ? courseLink(links.context, {
      educatorSlug: params.educator_slug,
      courseSlug: findCourse(params.course_ref)?.slug ?? params.course_ref ?? '',
      occurrenceId: params.occurrence,
      currentEducatorSlug: links.currentEducatorSlug,
      host: links.host,
      protocol: links.protocol,
    })
    : null;

  const field = (key: FieldKey, label: string, input: ReactElement) => {
    const message = errorOf(key);
    return (
      <div className="field">
        <label htmlFor={`${kind}-${key}`}>{label}</label>
        {input}
        {message && <span className="field__error" id={`${kind}-${key}-error`}>{message}</span>}
      </div>
    );
  };
  const inputProps = (key: FieldKey) => ({
    id: `${kind}-${key}`,
    name: key,
    value: values[key],
    required: true,
    'aria-invalid': errorOf(key) ? true : undefined,
    'aria-describedby': errorOf(key) ? `${kind}-${key}-error` : undefined,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

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
