/**
 * User Settings (spec 2.5): name, e-mail address (changed once the new address confirms it), password
 * (the current one is asked for when set), and deleting the account with its data.
 */
import { useEffect, useRef, useState, type Dispatch, type SetStateAction, type SubmitEvent, type ReactNode } from 'react';
import { readError } from '../../lib/api.ts';
import { apiFetch, loadIdentity } from '../../stores/identity.ts';
import './account.css';

export interface SettingsAccount {
  id: string;
  email: string;
  emailConfirmed: boolean;
  firstName: string;
  lastName: string;
  hasPassword: boolean;
}

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'ok'; message: string } | { kind: 'error'; message: string };

function useForm() {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  async function run(call: () => Promise<Response>, ok: (res: Response) => Promise<string> | string) {
    setStatus({ kind: 'busy' });
    try {
      const res = await call();
      if (!res.ok) {
        const problem = await readError(res);
        setStatus({ kind: 'error', message: problem.detail || problem.title });
        return false;
      }
      setStatus({ kind: 'ok', message: await ok(res) });
      return true;
    } catch {
      setStatus({ kind: 'error', message: 'Something went wrong. Please try again.' });
      return false;
    }
  }
  return { status, run };
}

function StatusLine({ status }: { status: Status }) {
  if (status.kind === 'ok') return <p className="alert alert--info" role="status">{status.message}</p>;
  if (status.kind === 'error') return <p className="alert alert--danger" role="alert">{status.message}</p>;
  return null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="panel section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function values(event: SubmitEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  return Object.fromEntries(new FormData(event.currentTarget).entries()) as Record<string, string>;
}

type Form = ReturnType<typeof useForm>;
type SetAccount = Dispatch<SetStateAction<SettingsAccount>>;

/** A link from the e-mail-change message (?confirm=) is confirmed once, its outcome shown in the e-mail section. */
function useEmailConfirmation(confirmToken: string | null, email: Form, setAccount: SetAccount): void {
  const confirmed = useRef(false);
  useEffect(() => {
    if (!confirmToken || confirmed.current) return;
    confirmed.current = true;
    void email.run(
      () => apiFetch('/account/email/confirm', { method: 'POST', body: JSON.stringify({ token: confirmToken }) }),
      async (res) => {
        const next = (await res.json()) as SettingsAccount;
        setAccount(next);
        void loadIdentity(true);
        history.replaceState(null, '', location.pathname);
        return `Your e-mail address is now ${next.email}.`;
      },
    );
  }, [confirmToken, email, setAccount]);
}

function NameSection({ account, setAccount, form }: { account: SettingsAccount; setAccount: SetAccount; form: Form }) {
  return (
    <Section title="Name">
      <form className="form" onSubmit={(e) => {
        const v = values(e);
        void form.run(() => apiFetch('/account', { method: 'PATCH', body: JSON.stringify({ firstName: v.firstName, lastName: v.lastName }) }), async (res) => {
          setAccount((await res.json()) as SettingsAccount);
          void loadIdentity(true);
          return 'Your name has been saved.';
        });
      }}>
        <div className="form__row form__row--2">
          <div className="field"><label htmlFor="settings-first">First name</label><input id="settings-first" name="firstName" defaultValue={account.firstName} autoComplete="given-name" required maxLength={100} /></div>
          <div className="field"><label htmlFor="settings-last">Last name</label><input id="settings-last" name="lastName" defaultValue={account.lastName} autoComplete="family-name" required maxLength={100} /></div>
        </div>
        <StatusLine status={form.status} />
        <div><button className="btn" type="submit" disabled={form.status.kind === 'busy'}>Save name</button></div>
      </form>
    </Section>
  );
}

function EmailSection({ account, form }: { account: SettingsAccount; form: Form }) {
  return (
    <Section title="E-mail address">
      <p>Your e-mail address is <strong data-testid="settings-email">{account.email}</strong>.</p>
      <form className="form" onSubmit={(e) => {
        const v = values(e);
        void form.run(() => apiFetch('/account/email', { method: 'POST', body: JSON.stringify({ email: v.email }) }),
          () => `We have sent a link to ${v.email}. Your address changes when you open it.`);
      }}>
        <div className="field"><label htmlFor="settings-email">New e-mail address</label><input id="settings-email" name="email" type="email" autoComplete="email" required /></div>
        <StatusLine status={form.status} />
        <div><button className="btn" type="submit" disabled={form.status.kind === 'busy'}>Change e-mail address</button></div>
      </form>
    </Section>
  );
}

function PasswordSection({ account, setAccount, form }: { account: SettingsAccount; setAccount: SetAccount; form: Form }) {
  return (
    <Section title="Password">
      <form className="form" onSubmit={(e) => {
        const v = values(e);
        const element = e.currentTarget;
        void form.run(
          () => apiFetch('/account/password', { method: 'POST', body: JSON.stringify({ currentPassword: v.currentPassword || null, newPassword: v.newPassword }) }),
          () => {
            element.reset();
            setAccount((a) => ({ ...a, hasPassword: true }));
            return 'Your password has been changed. Other devices have been logged out.';
          },
        );
      }}>
        {account.hasPassword && (
          <div className="field"><label htmlFor="settings-current">Current password</label><input id="settings-current" name="currentPassword" type="password" autoComplete="current-password" /></div>
        )}
        <div className="field"><label htmlFor="settings-new">New password</label><input id="settings-new" name="newPassword" type="password" autoComplete="new-password" minLength={8} required /></div>
        <p className="small muted">At least 8 characters.{account.hasPassword ? ' Logged in by an e-mailed link in the last 30 minutes? You can leave the current password empty.' : ''}</p>
        <StatusLine status={form.status} />
        <div><button className="btn" type="submit" disabled={form.status.kind === 'busy'}>{account.hasPassword ? 'Change password' : 'Set password'}</button></div>
      </form>
    </Section>
  );
}

function DeleteSection({ account, form }: { account: SettingsAccount; form: Form }) {
  return (
    <Section title="Delete account">
      <p>This deletes your account, your reviews and your saved courses. It cannot be undone.</p>
      <form className="form" onSubmit={(e) => {
        const v = values(e);
        void form.run(
          () => apiFetch('/account', { method: 'DELETE', body: JSON.stringify(account.hasPassword ? { password: v.confirm } : { email: v.confirm }) }),
          () => {
            window.setTimeout(() => location.assign('/'), 800);
            return 'Your account has been deleted.';
          },
        );
      }}>
        <div className="field">
          <label htmlFor="settings-delete">{account.hasPassword ? 'Your password' : 'Type your e-mail address'}</label>
          <input id="settings-delete" name="confirm" type={account.hasPassword ? 'password' : 'email'} autoComplete="off" />
        </div>
        <StatusLine status={form.status} />
        <div><button className="btn" type="submit" style={{ background: 'var(--danger, #b42318)', borderColor: 'var(--danger, #b42318)' }} disabled={form.status.kind === 'busy'}>Delete my account</button></div>
      </form>
    </Section>
  );
}

export default function SettingsApp({ account: initial, confirmToken }: { account: SettingsAccount; confirmToken: string | null }) {
  const [account, setAccount] = useState(initial);
  const name = useForm();
  const email = useForm();
  const password = useForm();
  const remove = useForm();
  useEmailConfirmation(confirmToken, email, setAccount);

  return (
    <div data-testid="settings">
      <NameSection account={account} setAccount={setAccount} form={name} />
      <EmailSection account={account} form={email} />
      <PasswordSection account={account} setAccount={setAccount} form={password} />
      <DeleteSection account={account} form={remove} />
    </div>
  );
}
