/** Claim profile (spec 2.5 "Own this business?"): a signed-in user asks to claim an unclaimed educator. */
import { useState, type SubmitEvent } from 'react';
import { readError } from '../../lib/api.ts';
import { apiFetch } from '../../stores/identity.ts';
import './account.css';

export default function ClaimForm({ educatorSlug, educatorName, requested }: { educatorSlug: string; educatorName: string; requested: boolean }) {
  const [sent, setSent] = useState(requested);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = Object.fromEntries(new FormData(event.currentTarget).entries()) as Record<string, string>;
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch(`/educators/${encodeURIComponent(educatorSlug)}/claim`, {
        method: 'POST',
        body: JSON.stringify({ message: data.message ?? '', phone: data.phone || null }),
      });
      if (!res.ok) {
        const problem = await readError(res);
        setError(problem.detail || problem.title);
        return;
      }
      setSent(true);
    } catch {
      setError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="panel" role="status" data-testid="claim-sent">
        <h2>Request received</h2>
        <p>Thank you. We will check your request to manage {educatorName} and contact you by e-mail.</p>
      </div>
    );
  }
  return (
    <form className="panel form" onSubmit={submit} data-testid="claim-form">
      <div className="field">
        <label htmlFor="claim-message">How are you connected to {educatorName}?</label>
        <textarea id="claim-message" name="message" maxLength={2000} placeholder="For example: I am the owner and run the classes." />
      </div>
      <div className="field">
        <label htmlFor="claim-phone">Telephone (optional)</label>
        <input id="claim-phone" name="phone" type="tel" autoComplete="tel" />
      </div>
      {error && <p className="alert alert--danger" role="alert">{error}</p>}
      <div><button className="btn" type="submit" disabled={busy}>{busy ? 'Sending…' : 'Request to claim this profile'}</button></div>
    </form>
  );
}
