/**
 * /profile "Memberships": the learner's memberships with the next renewal, credits left, the payments with their
 * receipts, and Cancel (it takes effect at the end of the paid period). Shown only when the learner has any.
 */
import { useEffect, useState } from 'react';
import { apiFetch } from '../../stores/identity.ts';
import { apiUrl } from '../../lib/api.ts';
import { formatDay } from '../../lib/format.ts';
import { formatPence } from '../../domain/money.ts';

interface MembershipView {
  id: string; planName: string; educatorName: string; status: 'active' | 'past_due' | 'ended'; priceText: string; interval: string;
  currentPeriodEnd: number; nextRenewal: number | null; creditsLeft: number; cancelAtPeriodEnd: boolean; endReason: string | null;
  payments: { id: string; kind: string; status: string; amount: number; currency: string; createdAt: number; receipt: string | null; receiptNumber: string | null }[];
}

function statusText(m: MembershipView): string {
  if (m.status === 'ended') return m.endReason === 'payment_failed' ? 'Ended: payment failed' : 'Ended';
  if (m.status === 'past_due') return 'Payment failed: benefits paused';
  if (m.cancelAtPeriodEnd) return `Cancelled: active until ${formatDay(m.currentPeriodEnd)}`;
  return 'Active';
}

export default function ProfileMemberships() {
  const [items, setItems] = useState<MembershipView[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    const res = await apiFetch('/memberships');
    if (res.ok) setItems(((await res.json()) as { memberships: MembershipView[] }).memberships);
    else setItems([]);
  };
  useEffect(() => {
    void load();
  }, []);
  if (!items || items.length === 0) return null;
  const cancel = async (m: MembershipView) => {
    if (!window.confirm(`Cancel ${m.planName}? Your benefits continue until ${formatDay(m.currentPeriodEnd)}.`)) return;
    setBusy(m.id);
    setError(null);
    const res = await apiFetch(`/memberships/${encodeURIComponent(m.id)}/cancel`, { method: 'POST', body: '{}' });
    if (!res.ok) setError('The membership could not be cancelled. Please try again.');
    await load();
    setBusy(null);
  };
  return (
    <section className="section" aria-labelledby="memberships-heading" data-testid="profile-memberships">
      <h2 id="memberships-heading">Memberships</h2>
      {error && <p role="alert">{error}</p>}
      <ul className="profile-items">
        {items.map((m) => (
          <li key={m.id} className="panel profile-item stack" data-membership={m.id} data-status={m.status}>
            <p className="muted small" style={{ margin: 0 }}>Membership · {statusText(m)}</p>
            <h3 style={{ margin: 0, fontSize: '1.15rem' }}>{m.planName}</h3>
            <p style={{ margin: 0 }}>{m.educatorName} · {m.priceText}</p>
            {m.status !== 'ended' && (
              <p style={{ margin: 0 }} data-testid="membership-renewal">
                {m.nextRenewal ? `Next renewal: ${formatDay(m.nextRenewal)}` : `Ends: ${formatDay(m.currentPeriodEnd)}`}
              </p>
            )}
            {m.status === 'active' && <p style={{ margin: 0 }} data-testid="membership-credits">Credits left: {m.creditsLeft}</p>}
            <ul className="plain-list small">
              {m.payments.map((p) => (
                <li key={p.id}>
                  {formatDay(p.createdAt)} · {formatPence(p.amount, p.currency)} · {p.status === 'paid' ? (p.kind === 'join' ? 'Paid' : 'Renewed') : 'Payment failed'}
                  {p.receipt && <> · <a href={apiUrl(p.receipt.replace(/^\/api/, ''))} target="_blank" rel="noopener">Receipt {p.receiptNumber}</a></>}
                </li>
              ))}
            </ul>
            {m.status !== 'ended' && !m.cancelAtPeriodEnd && (
              <button type="button" className="btn btn--secondary" disabled={busy === m.id} onClick={() => void cancel(m)}>Cancel membership</button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
