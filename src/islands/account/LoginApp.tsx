/**
 * The main site's /login (spec 2.5, 4 "After login", 5): log in with a password, sign up, or get an e-mailed
 * link; complete an e-mailed link (?token=); then go to the stored redirect, else the admin host for
 * educator admins, else /profile. With ?mode=embed (opened by an embed with window.open) the window hands a
 * one-time code to the embed that opened it and closes.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { readError } from '../../lib/api.ts';
import { EMBED_CODE_MESSAGE, apiFetch, loadIdentity, type Identity } from '../../stores/identity.ts';
import { goAfterLogin, rememberRedirect, takePostLoginDestination } from '../../stores/login.ts';
import { AUTH_REDIRECT_KEY } from '../../domain/redirects.ts';
import './account.css';

export interface LoginAppProps {
  mode: 'page' | 'embed';
  redirect: string | null;
  educator: { name: string; logo: string | null } | null;
  /** An e-mailed link being completed: its address, or invalid. */
  link: { token: string; email: string | null; valid: boolean; purpose: 'magic-link' | 'signup' | null } | null;
  signedIn: boolean;
}

type Tab = 'login' | 'signup' | 'link';
type Screen = { kind: 'forms' } | { kind: 'check-email'; email: string } | { kind: 'link' } | { kind: 'done'; message: string };

async function finishLogin(identity: Identity, mode: 'page' | 'embed', linkRedirect: string | null): Promise<string> {
  if (mode === 'embed') {
    const res = await apiFetch('/auth/embed/code', { method: 'POST', body: '{}' });
    if (res.ok) {
      const { code } = (await res.json()) as { code: string };
      if (window.opener && !window.opener.closed) {
        window.opener.postMessage({ type: EMBED_CODE_MESSAGE, code }, location.origin);
        window.setTimeout(() => window.close(), 300);
        return 'You are logged in. This window will close.';
      }
    }
    return 'You are logged in. You can close this window and go back to the page you were on.';
  }
  // A link opened in another browser has no stored redirect: the one kept with the link stands in.
  if (linkRedirect && !localStorage.getItem(AUTH_REDIRECT_KEY)) rememberRedirect(linkRedirect);
  goAfterLogin(takePostLoginDestination(identity));
  return 'You are logged in. Taking you back…';
}

function Field({ label, ...input }: { label: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = `login-${input.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  );
}

type SetScreen = (screen: Screen) => void;
type After = (body: unknown, sent: Record<string, string>) => Promise<void>;

/**
 * Once hydrated: the forms may be sent, the redirect is kept, and a visitor already signed in is taken on.
 * Returns whether the island has started.
 */
function useLoginStart({ mode, redirect, link, signedIn }: LoginAppProps, setScreen: SetScreen): boolean {
  // Until the island runs, the forms cannot be sent (a plain form submission would expose the fields).
  const [hydrated, setHydrated] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    document.documentElement.dataset.loginReady = 'true';
    setHydrated(true);
    // Spec 5: keep the redirect only for our domain, never the site root (an old one is forgotten).
    if (mode === 'page' && !link) rememberRedirect(redirect, location.hostname);
    if (signedIn) {
      void loadIdentity(true).then(async (identity) => {
        if (identity.authenticated) setScreen({ kind: 'done', message: await finishLogin(identity, mode, null) });
        else setScreen({ kind: 'forms' });
      });
    }
  }, [mode, redirect, link, signedIn, setScreen]);
  return hydrated;
}

/** Embed window waiting for an e-mailed link opened elsewhere: notice the new session. */
function useEmbedSessionWatch(mode: LoginAppProps['mode'], screenKind: Screen['kind'], setScreen: SetScreen): void {
  useEffect(() => {
    if (mode !== 'embed' || screenKind !== 'check-email') return;
    const timer = window.setInterval(async () => {
      const identity = await loadIdentity(true);
      if (identity.authenticated) {
        window.clearInterval(timer);
        setScreen({ kind: 'done', message: await finishLogin(identity, mode, null) });
      }
    }, 3000);
    return () => window.clearInterval(timer);
  }, [mode, screenKind, setScreen]);
}

/** The calls to the auth API, one at a time: a form's submission (`submit`) and completing an e-mailed link. */
function useAuthCalls({ mode, redirect, link }: LoginAppProps, setScreen: SetScreen) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: SubmitEvent<HTMLFormElement>, path: string, after: After) {
    event.preventDefault();
    if (busy) return;
    const data = Object.fromEntries(new FormData(event.currentTarget).entries()) as Record<string, string>;
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch(path, { method: 'POST', body: JSON.stringify({ ...data, redirect: mode === 'page' ? redirect : null }) });
      if (!res.ok) {
        const problem = await readError(res);
        setError(problem.detail || problem.title);
        return;
      }
      await after(await res.json(), data);
    } catch {
      setError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function completeLink() {
    if (!link || busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch('/auth/magic-link/verify', { method: 'POST', body: JSON.stringify({ token: link.token }) });
      if (!res.ok) {
        const problem = await readError(res);
        setError(problem.detail || problem.title);
        return;
      }
      const body = (await res.json()) as { identity: Identity; redirect: string | null; setPassword?: boolean };
      await loadIdentity(true);
      // The password typed at sign-up was typed in another browser, so it was not applied: choose one now.
      const next = body.setPassword ? new URL('/profile/settings', window.location.origin).toString() : body.redirect;
      setScreen({ kind: 'done', message: await finishLogin(body.identity, 'page', next) });
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, submit, completeLink };
}

function LoginHeading({ educator }: { educator: LoginAppProps['educator'] }) {
  return (
    <>
      <h1>Log in or Sign Up</h1>
      {educator && (
        <p className="muted" data-testid="login-educator">
          {educator.logo && <img src={educator.logo} alt="" width={24} height={24} style={{ borderRadius: 6, verticalAlign: 'middle', marginRight: 8 }} />}
          to continue with {educator.name}
        </p>
      )}
    </>
  );
}

/** An e-mailed link being completed: continue with it, or ask for a new one when it is no longer valid. */
function LinkScreen({ link, educator, error, busy, hydrated, onContinue, onNewLink }: {
  link: NonNullable<LoginAppProps['link']>; educator: LoginAppProps['educator']; error: string | null; busy: boolean; hydrated: boolean;
  onContinue: () => void; onNewLink: () => void;
}) {
  return (
    <div className="panel auth-card">
      <LoginHeading educator={educator} />
      {link.valid ? (
        <>
          <p>{link.purpose === 'signup' ? 'Confirm your e-mail address to finish creating your account' : 'Continue to log in'}{link.email ? <> as <strong>{link.email}</strong></> : null}.</p>
          {error && <p className="alert alert--danger" role="alert">{error}</p>}
          <button type="button" className="btn btn--block" onClick={onContinue} disabled={busy || !hydrated}>{busy ? 'Logging in…' : 'Continue'}</button>
        </>
      ) : (
        <>
          <p className="alert alert--danger" role="alert">This link has expired or has already been used. Ask for a new one.</p>
          <button type="button" className="btn btn--secondary" onClick={onNewLink}>E-mail me a new link</button>
        </>
      )}
    </div>
  );
}

function CheckEmailScreen({ email, mode, onBack }: { email: string; mode: LoginAppProps['mode']; onBack: () => void }) {
  return (
    <div className="panel auth-card" role="status" data-testid="check-email">
      <h1>Check your e-mail</h1>
      <p>We have sent a link to <strong>{email}</strong>. Open it to continue{mode === 'embed' ? '; this window will notice when you are logged in' : ''}.</p>
      <p className="muted small">No e-mail? Check your spam folder, or try again in a minute.</p>
      <button type="button" className="btn btn--secondary" onClick={onBack}>Use a different e-mail address</button>
    </div>
  );
}

const TABS: { key: Tab; label: string }[] = [
  { key: 'login', label: 'Log in' },
  { key: 'signup', label: 'Sign up' },
  { key: 'link', label: 'E-mail me a link' },
];

interface LoginFormsProps {
  mode: LoginAppProps['mode'];
  educator: LoginAppProps['educator'];
  tab: Tab;
  setTab: (tab: Tab) => void;
  calls: ReturnType<typeof useAuthCalls>;
  hydrated: boolean;
  setScreen: SetScreen;
}

/** The three ways in, as tabs: log in with a password, sign up, or have a link e-mailed. */
function LoginForms({ mode, educator, tab, setTab, calls, hydrated, setScreen }: LoginFormsProps) {
  const { busy, error, setError, submit } = calls;
  const checkEmail: After = async (_body, sent) => setScreen({ kind: 'check-email', email: sent.email });
  return (
    <div className="panel auth-card">
      <LoginHeading educator={educator} />
      <div className="auth-switch" role="tablist" aria-label="How to continue">
        {TABS.map((t) => (
          <button key={t.key} type="button" role="tab" aria-selected={tab === t.key} onClick={() => { setTab(t.key); setError(null); }}>{t.label}</button>
        ))}
      </div>
      {error && <p className="alert alert--danger" role="alert">{error}</p>}
      {tab === 'login' && (
        <form className="form" method="post" action="#" onSubmit={(e) => submit(e, '/auth/login', async (body) => {
          const identity = (body as { identity: Identity }).identity;
          await loadIdentity(true);
          setScreen({ kind: 'done', message: await finishLogin(identity, mode, null) });
        })}>
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className="btn btn--block" disabled={busy || !hydrated}>{busy ? 'Logging in…' : 'Log in'}</button>
          <p className="small muted">Forgotten your password? <button type="button" className="link-button" onClick={() => setTab('link')}>E-mail me a link</button> and set a new one in User Settings.</p>
        </form>
      )}
      {tab === 'signup' && (
        <form className="form" method="post" action="#" onSubmit={(e) => submit(e, '/auth/signup', checkEmail)}>
          <div className="form__row form__row--2">
            <Field label="First name" name="firstName" autoComplete="given-name" required />
            <Field label="Last name" name="lastName" autoComplete="family-name" required />
          </div>
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={8} required />
          <p className="small muted">At least 8 characters. We will e-mail you a link to confirm your address.</p>
          <button type="submit" className="btn btn--block" disabled={busy || !hydrated}>{busy ? 'Signing up…' : 'Sign up'}</button>
        </form>
      )}
      {tab === 'link' && (
        <form className="form" method="post" action="#" onSubmit={(e) => submit(e, '/auth/magic-link', checkEmail)}>
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <p className="small muted">We will e-mail you a link that logs you in, or creates your account if you are new.</p>
          <button type="submit" className="btn btn--block" disabled={busy || !hydrated}>{busy ? 'Sending…' : 'Send me a link'}</button>
        </form>
      )}
    </div>
  );
}

export default function LoginApp(props: LoginAppProps) {
  const { mode, educator, link, signedIn } = props;
  const [tab, setTab] = useState<Tab>('login');
  const [screen, setScreen] = useState<Screen>(link ? { kind: 'link' } : signedIn ? { kind: 'done', message: 'You are logged in. Taking you back…' } : { kind: 'forms' });
  const calls = useAuthCalls(props, setScreen);
  const hydrated = useLoginStart(props, setScreen);
  useEmbedSessionWatch(mode, screen.kind, setScreen);

  if (screen.kind === 'done') {
    return <div className="panel auth-card" role="status"><h1>Logged in</h1><p>{screen.message}</p></div>;
  }
  if (screen.kind === 'link' && link) {
    return (
      <LinkScreen link={link} educator={educator} error={calls.error} busy={calls.busy} hydrated={hydrated}
        onContinue={calls.completeLink} onNewLink={() => { setScreen({ kind: 'forms' }); setTab('link'); }} />
    );
  }
  if (screen.kind === 'check-email') {
    return <CheckEmailScreen email={screen.email} mode={mode} onBack={() => setScreen({ kind: 'forms' })} />;
  }
  return <LoginForms mode={mode} educator={educator} tab={tab} setTab={setTab} calls={calls} hydrated={hydrated} setScreen={setScreen} />;
}
