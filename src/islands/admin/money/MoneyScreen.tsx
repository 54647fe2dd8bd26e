/**
 * The Money screen (/money): over a chosen period, what each payment provider took and gave back (what it pays out
 * to the educator), the platform's fees, and the gift cards and members totals; then the gift cards sold (balances,
 * redemptions) and the members (renewals, the failed ones to chase), each a page at a time with CSV exports.
 * Connecting Stripe is on Payment options (linked). Tables scroll sideways on a phone in a focusable region.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { adminFetch } from '../api.ts';
import { ProblemAlert, SelectField, educatorPath } from '../catalogue/kit.tsx';
import { adminPath } from '../../../domain/admin-nav.ts';
import { END_REASON_TEXT, MEMBER_STATUS_TEXT } from '../../../domain/admin/money.ts';
import { at, money } from '../bookings/format.ts';
import { usePeriodData } from '../period.tsx';
import '../business.css';

interface Provider { provider: string; label: string; payments: number; taken: number; refunds: number; refunded: number; net: number }
interface MoneyView {
  from: number; to: number;
  providers: Provider[];
  fees: { charged: number; paidByLearners: number; absorbed: number; refunded: number; sales: number };
  giftCards: { sold: number; amount: number; redeemed: number; outstanding: number; expiredUnused: number; soldInPeriod: number; amountInPeriod: number };
  members: { active: number; pastDue: number; ended: number; renewalsPaid: number; renewalsAmount: number; renewalsFailed: number };
  accounts: { provider: string; label: string; accountId: string; connectedAt: number }[];
}
interface GiftCard {
  id: string; codeEnd: string; amount: number; balance: number; redeemed: number; redemptions: number; currency: string; createdAt: number; expiresAt: number;
  buyerName: string; buyerEmail: string; recipientName: string; recipientEmail: string; sentAt: number | null;
}
interface Member {
  id: string; status: string; endReason: string | null; planName: string; price: number; currency: string; createdAt: number; periodEnd: number; renews: boolean;
  renewalAttempts: number; firstName: string; lastName: string; email: string; lastFailedAt: number | null; failure: string | null; toChase: boolean;
}
interface Page<T> { items: T[]; next: string | null }

const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
const dateOnly = (s: number) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'Europe/London' }).format(new Date(s * 1000));

/** A table that scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */
function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return <div className="biz-table-wrap" tabIndex={0} role="region" aria-label={label}>{children}</div>;
}

/** A list read a page at a time ("Show more"): the first page again whenever `path` changes. */
function usePages<T>(path: string) {
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<import('../api.ts').AdminProblem | null>(null);
  async function load(cursor: string | null) {
    const res = await adminFetch<Page<T>>('GET', cursor ? `${path}${path.includes('?') ? '&' : '?'}before=${encodeURIComponent(cursor)}` : path);
    if (!res.ok) return setProblem(res.problem);
    setProblem(null);
    setItems((old) => (cursor ? [...old, ...res.data.items] : res.data.items));
    setNext(res.data.next);
    setLoaded(true);
  }
  useEffect(() => { setLoaded(false); void load(null); }, [path]); // eslint-disable-line react-hooks/exhaustive-deps
  return { items, next, loaded, problem, more: () => (next ? load(next) : Promise.resolve()) };
}

export default function MoneyScreen({ educatorId }: { educatorId: string }) {
  const { data, form } = usePeriodData<MoneyView>(educatorId, 'money');
  return (
    <div className="biz" data-testid="money-screen">
      {form}
      {!data ? <p role="status">Loading the figures…</p> : <Period data={data} educatorId={educatorId} />}
      <GiftCards educatorId={educatorId} />
      <Members educatorId={educatorId} />
    </div>
  );
}

function Period({ data, educatorId }: { data: MoneyView; educatorId: string }) {
  const net = data.providers.reduce((t, p) => t + p.net, 0);
  return (
    <>
      <p role="status">From {day(data.from)} to {day(data.to - 1)}: {money(net)} taken after refunds, {money(data.fees.charged)} in platform fees.</p>
      <section aria-labelledby="payouts-heading">
        <h2 id="payouts-heading">Payouts per provider</h2>
        <p className="biz-muted">What each provider took for you in the period, less what it refunded: the provider pays this out to your account on its own schedule.
          {' '}{data.accounts.length ? `Connected: ${data.accounts.map((a) => `${a.label} (${a.accountId})`).join(', ')}.` : 'No Stripe account is connected yet.'}
          {' '}<a href={adminPath('/payments', educatorId)}>Stripe and other payment options</a></p>
        {data.providers.length === 0 ? <p className="admin-empty">Nothing was paid through a provider in this period.</p> : (
          <Scroll label="Payouts per provider table">
            <table className="admin-table">
              <caption>Taken, refunded and paid out per provider</caption>
              <thead><tr><th scope="col">Provider</th><th scope="col">Payments</th><th scope="col">Taken</th><th scope="col">Refunds</th><th scope="col">Refunded</th><th scope="col">To pay out</th></tr></thead>
              <tbody>{data.providers.map((p) => (
                <tr key={p.provider}><th scope="row">{p.label}</th><td>{p.payments}</td><td>{money(p.taken)}</td><td>{p.refunds}</td><td>{money(p.refunded)}</td><td>{money(p.net)}</td></tr>
              ))}</tbody>
            </table>
          </Scroll>
        )}
      </section>
      <section aria-labelledby="fees-heading">
        <h2 id="fees-heading">Platform fees</h2>
        <Scroll label="Platform fees table">
          <table className="admin-table">
            <caption>The platform's fees on {data.fees.sales} paid {data.fees.sales === 1 ? 'sale' : 'sales'} in the period</caption>
            <tbody>
              <tr><th scope="row">Fees charged</th><td>{money(data.fees.charged)}</td></tr>
              <tr><th scope="row">Paid by learners on top of your prices</th><td>{money(data.fees.paidByLearners)}</td></tr>
              <tr><th scope="row">Taken from your prices (absorbed)</th><td>{money(data.fees.absorbed)}</td></tr>
              <tr><th scope="row">Given back with refunds</th><td>{money(data.fees.refunded)}</td></tr>
            </tbody>
          </table>
        </Scroll>
      </section>
      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Gift cards and members</h2>
        <Scroll label="Gift card and member totals table">
          <table className="admin-table">
            <caption>Gift cards (all time) and members</caption>
            <tbody>
              <tr><th scope="row">Gift cards sold</th><td>{data.giftCards.sold} ({money(data.giftCards.amount)}); {data.giftCards.soldInPeriod} in the period ({money(data.giftCards.amountInPeriod)})</td></tr>
              <tr><th scope="row">Redeemed</th><td>{money(data.giftCards.redeemed)}</td></tr>
              <tr><th scope="row">Left on valid cards</th><td>{money(data.giftCards.outstanding)}</td></tr>
              <tr><th scope="row">Left on expired cards</th><td>{money(data.giftCards.expiredUnused)}</td></tr>
              <tr><th scope="row">Members</th><td>{data.members.active} active, {data.members.pastDue} with a failed renewal, {data.members.ended} ended</td></tr>
              <tr><th scope="row">Renewals in the period</th><td>{data.members.renewalsPaid} paid ({money(data.members.renewalsAmount)}), {data.members.renewalsFailed} failed</td></tr>
            </tbody>
          </table>
        </Scroll>
      </section>
    </>
  );
}

function GiftCards({ educatorId }: { educatorId: string }) {
  const path = educatorPath(educatorId, '/money/gift-cards');
  const { items, next, loaded, problem, more } = usePages<GiftCard>(path);
  return (
    <section aria-labelledby="cards-heading">
      <h2 id="cards-heading">Gift cards sold</h2>
      <p className="cat-actions"><a className="btn btn--secondary" href={`/api/admin${educatorPath(educatorId, '/exports/gift-cards.csv')}`} download>Download gift cards (CSV)</a></p>
      <ProblemAlert problem={problem} />
      {!loaded ? <p role="status">Loading gift cards…</p> : items.length === 0 ? <p className="admin-empty">No gift cards sold yet.</p> : (
        <Scroll label="Gift cards sold table">
          <table className="admin-table">
            <caption className="visually-hidden">Gift cards sold, newest first</caption>
            <thead><tr><th scope="col">Code ends</th><th scope="col">Sold</th><th scope="col">Amount</th><th scope="col">Balance</th><th scope="col">Redeemed</th><th scope="col">Bought by</th><th scope="col">For</th><th scope="col">Expires</th></tr></thead>
            <tbody>{items.map((g) => (
              <tr key={g.id}>
                <th scope="row">…{g.codeEnd}</th><td>{dateOnly(g.createdAt)}</td><td>{money(g.amount, g.currency)}</td><td>{money(g.balance, g.currency)}</td>
                <td>{money(g.redeemed, g.currency)} ({g.redemptions} {g.redemptions === 1 ? 'booking' : 'bookings'})</td>
                <td>{g.buyerName}<br /><span className="biz-muted">{g.buyerEmail}</span></td>
                <td>{g.recipientName}<br /><span className="biz-muted">{g.recipientEmail}{g.sentAt ? '' : ' · not sent yet'}</span></td>
                <td>{dateOnly(g.expiresAt)}</td>
              </tr>
            ))}</tbody>
          </table>
        </Scroll>
      )}
      {next && <button type="button" className="btn btn--secondary" onClick={() => void more()}>Show more gift cards</button>}
    </section>
  );
}

const MEMBER_FILTERS = [
  { value: 'all', label: 'All members' }, { value: 'chase', label: 'Failed renewals to chase' }, { value: 'active', label: 'Active' },
  { value: 'past_due', label: 'Renewal failed' }, { value: 'ended', label: 'Ended' },
] as const;

function Members({ educatorId }: { educatorId: string }) {
  const [state, setState] = useState('all');
  const { items, next, loaded, problem, more } = usePages<Member>(educatorPath(educatorId, `/money/members?state=${state}`));
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members and renewals</h2>
      <div className="biz-filters">
        <SelectField label="Show" name="state" value={state} onChange={setState} options={MEMBER_FILTERS} />
        <a className="btn btn--secondary" href={`/api/admin${educatorPath(educatorId, '/exports/members.csv')}`} download>Download members (CSV)</a>
      </div>
      <ProblemAlert problem={problem} />
      {!loaded ? <p role="status">Loading members…</p> : items.length === 0 ? <p className="admin-empty">{state === 'chase' ? 'No failed renewals to chase.' : 'No members here.'}</p> : (
        <Scroll label="Members table">
          <table className="admin-table">
            <caption className="visually-hidden">Members, newest first</caption>
            <thead><tr><th scope="col">Member</th><th scope="col">Plan</th><th scope="col">Status</th><th scope="col">Price</th><th scope="col">Period ends</th><th scope="col">Last failed payment</th></tr></thead>
            <tbody>{items.map((m) => (
              <tr key={m.id}>
                <th scope="row">{`${m.firstName} ${m.lastName}`.trim() || 'Learner'}<br /><a href={`mailto:${m.email}`}>{m.email}</a></th>
                <td>{m.planName}</td>
                <td>{MEMBER_STATUS_TEXT[m.status] ?? m.status}{m.endReason ? ` (${END_REASON_TEXT[m.endReason] ?? m.endReason})` : ''}{m.toChase ? <strong> · to chase</strong> : null}</td>
                <td>{money(m.price, m.currency)}</td>
                <td>{dateOnly(m.periodEnd)}{m.renews ? ' · renews' : ''}</td>
                <td>{m.lastFailedAt ? `${at(m.lastFailedAt)}: ${m.failure ?? 'failed'} (${m.renewalAttempts} ${m.renewalAttempts === 1 ? 'try' : 'tries'})` : '—'}</td>
              </tr>
            ))}</tbody>
          </table>
        </Scroll>
      )}
      {next && <button type="button" className="btn btn--secondary" onClick={() => void more()}>Show more members</button>}
    </section>
  );
}
