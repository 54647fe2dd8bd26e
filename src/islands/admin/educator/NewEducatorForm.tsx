/**
 * Onboarding (/new-educator): a signed-in user creates an educator — name, address (slug, checked as it is typed),
 * contact e-mail and phone, and the terms — with POST /api/admin/educators, then goes to its overview.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { adminFetch } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { educatorSlugProblem, suggestEducatorSlug } from '../../../domain/admin/educator-profile.ts';
import { useAlert } from './alerts.tsx';
import { Check, Field } from './fields.tsx';
import './educator.css';

interface Props {
  /** The marketplace host, e.g. 'localhost:4321' (for the addresses shown under the slug). */
  host: string;
  protocol: string;
  termsUrl: string;
  firstEducator: boolean;
}

interface SlugCheck { slug: string; available: boolean; message: string | null }

/**
 * Whether the server knows `slug` to be free (asked 300 ms after the typing stops); null until it answers, and
 * while the address is empty or already wrong by the browser's own rules (`localProblem`).
 */
function useSlugCheck(slug: string, localProblem: string | null): SlugCheck | null {
  const [check, setCheck] = useState<SlugCheck | null>(null);
  useEffect(() => {
    if (!slug || localProblem) {
      setCheck(null);
      return;
    }
    let stale = false;
    const timer = setTimeout(async () => {
      const res = await adminFetch<SlugCheck>('GET', `/slug-check?slug=${encodeURIComponent(slug)}`);
      if (!stale && res.ok) setCheck(res.data);
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [slug, localProblem]);
  return check;
}

/** The fields left empty (or the terms not accepted), keyed as the server keys them. */
function missingFields(v: { name: string; slug: string; email: string; phone: string; terms: boolean }): Record<string, string> {
  const local: Record<string, string> = {};
  if (!v.name.trim()) local.name = 'is required';
  if (!v.slug) local.slug = 'is required';
  if (!v.email.trim()) local.email = 'is required';
  if (!v.phone.trim()) local.phone = 'is required';
  if (!v.terms) local.termsAccepted = 'must be accepted';
  return local;
}

/** `fields` without `key`'s message (the same object when it has none, so nothing re-renders). */
function withoutField(fields: Record<string, string>, key: string): Record<string, string> {
  if (!(key in fields)) return fields;
  const next = { ...fields };
  delete next[key];
  return next;
}

export default function NewEducatorForm({ host, protocol, termsUrl, firstEducator }: Props) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [terms, setTerms] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const { alert, setAlert, alertRef, showAlert } = useAlert<string>();
  useUnsavedWarning(!done && (name !== '' || email !== '' || phone !== ''));

  // The address follows the name until the admin edits it.
  const effectiveSlug = slugEdited ? slug : suggestEducatorSlug(name);
  const localProblem = effectiveSlug ? educatorSlugProblem(effectiveSlug) : null;
  const check = useSlugCheck(effectiveSlug, localProblem);
  const slugMessage = fields.slug ?? localProblem ?? (check && check.slug === effectiveSlug && !check.available ? check.message : null);
  const slugFree = !slugMessage && check?.slug === effectiveSlug && check.available;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const local = missingFields({ name, slug: effectiveSlug, email, phone, terms });
    if (Object.keys(local).length) {
      setFields(local);
      setAlert('Please correct the fields marked below.');
      alertRef.current?.focus();
      return;
    }
    setBusy(true);
    setAlert(null);
    const res = await adminFetch<{ id: string }>('POST', '/educators', { name, slug: effectiveSlug, email, phone, termsAccepted: true });
    setBusy(false);
    if (res.ok) {
      setDone(true);
      window.location.assign(`/?educator-context=${encodeURIComponent(res.data.id)}`);
      return;
    }
    setFields(res.problem.fields);
    showAlert(Object.keys(res.problem.fields).length ? 'Please correct the fields marked below.' : res.problem.detail);
  }

  const clear = (key: string) => setFields((f) => withoutField(f, key));

  return (
    <form className="edu-form" onSubmit={submit} noValidate data-testid="new-educator-form">
      <p>{firstEducator
        ? 'You do not run an educator here yet. Tell us who you are to start your catalogue: your pages on the marketplace, your own site and your embed are made for you.'
        : 'Add another educator you run. You can switch between your educators at the top of every screen.'}</p>
      <div ref={alertRef} tabIndex={-1} className="edu-alert-slot">
        {alert && <p className="admin-status" data-kind="error" role="alert">{alert}</p>}
      </div>
      <Field id="edu-name" label="Name" error={fields.name} hint="As learners will see it, e.g. Clay Studio Bristol.">
        {(aria) => <input {...aria} type="text" autoComplete="organization" maxLength={120} value={name} onChange={(e) => { setName(e.currentTarget.value); clear('name'); }} required />}
      </Field>
      <SlugField host={host} protocol={protocol} slug={effectiveSlug} message={slugMessage} onChange={(v) => { setSlug(v); setSlugEdited(true); clear('slug'); }} />
      <p className="edu-live" role="status" aria-live="polite">{slugFree ? `${effectiveSlug} is available.` : ''}</p>
      <Field id="edu-email" label="Contact e-mail" error={fields.email} hint="Where enquiries and bookings reach you.">
        {(aria) => <input {...aria} type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => { setEmail(e.currentTarget.value); clear('email'); }} required />}
      </Field>
      <Field id="edu-phone" label="Phone" error={fields.phone} hint="UK numbers can start with 0; others with + and the country code.">
        {(aria) => <input {...aria} type="tel" autoComplete="tel" maxLength={40} value={phone} onChange={(e) => { setPhone(e.currentTarget.value); clear('phone'); }} required />}
      </Field>
      <Check
        id="edu-terms"
        checked={terms}
        onChange={(v) => { setTerms(v); clear('termsAccepted'); }}
        error={fields.termsAccepted}
        label={<>I accept the <a href={termsUrl} target="_blank" rel="noopener">terms for educators</a> (opens in a new tab)</>}
      />
      <div className="edu-actions">
        <button className="btn" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create educator'}</button>
      </div>
    </form>
  );
}

/** The web address, with the addresses it gives shown under it; `onChange` gets it in lower case. */
function SlugField({ host, protocol, slug, message, onChange }: { host: string; protocol: string; slug: string; message: string | null; onChange(slug: string): void }) {
  return (
    <Field
      id="edu-slug"
      label="Web address"
      error={message}
      hint={<>Lower-case letters, digits and hyphens. Your pages: <span className="edu-url">{protocol}://{host}/{slug || 'your-name'}</span> and <span className="edu-url">{protocol}://{slug || 'your-name'}.{host}</span></>}
    >
      {(aria) => (
        <input
          {...aria}
          type="text"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={63}
          value={slug}
          onChange={(e) => onChange(e.currentTarget.value.toLowerCase())}
          required
        />
      )}
    </Field>
  );
}
