/**
 * Activity (/activity): the educator's audit log (GET /api/admin/educators/{id}/changes), newest first — when, who,
 * what, and each field before and after — 25 at a time with "Load more" (the API's cursor, so entries made in the
 * same second are neither skipped nor repeated).
 */
import { useEffect, useRef, useState } from 'react';
import { adminFetch } from '../api.ts';
import './educator.css';

interface Change {
  id: string;
  at: number;
  by: { id: string | null; name: string | null };
  entity: string;
  entityId: string;
  action: string;
  revision: number | null;
  fields: string[];
  changes: Record<string, [unknown, unknown]>;
}

const PAGE = 25;
const ENTITIES: Record<string, string> = {
  educator: 'Profile', payment_options: 'Payment options', payment_account: 'Stripe account', course: 'Course', occurrence: 'Date',
  form: 'Form', location: 'Location', collection: 'Collection', voucher: 'Promo code', membership_plan: 'Membership', offer: 'Price',
};
const ACTIONS: Record<string, string> = { create: 'created', update: 'changed', delete: 'deleted', connect: 'connected', publish: 'published', unpublish: 'unpublished', cancel: 'cancelled' };

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

function short(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  const text = typeof value === 'string' ? value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim() : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text || '(none)';
}

export default function ActivityLog({ educatorId }: { educatorId: string }) {
  const [changes, setChanges] = useState<Change[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const firstNew = useRef<HTMLTableRowElement>(null);
  const focusIndex = useRef<number | null>(null);

  async function page(cursor: string | null) {
    setLoading(true);
    setError(null);
    const q = new URLSearchParams({ limit: String(PAGE), ...(cursor ? { cursor } : {}) });
    const res = await adminFetch<{ changes: Change[]; next: string | null }>('GET', `/educators/${encodeURIComponent(educatorId)}/changes?${q}`);
    setLoading(false);
    if (!res.ok) return setError(res.problem.detail);
    setChanges((list) => {
      focusIndex.current = cursor ? list.length : null;
      return cursor ? [...list, ...res.data.changes] : res.data.changes;
    });
    setNext(res.data.next);
    if (cursor) setAnnounce(`${res.data.changes.length} more changes shown.`);
  }
  useEffect(() => {
    void page(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [educatorId]);
  useEffect(() => {
    // After "Load more", the first new row takes the focus, so keyboard users carry on reading from there.
    if (focusIndex.current !== null) firstNew.current?.focus();
  }, [changes]);

  return (
    <div className="edu-form" data-testid="activity">
      {error && <p className="admin-status" data-kind="error" role="alert">{error}</p>}
      {!loading && !error && changes.length === 0 && <p className="admin-empty">No changes yet. Every change you and your team make shows here.</p>}
      {changes.length > 0 && (
        <table className="admin-table edu-activity-table">
          <caption className="visually-hidden">Changes to your educator, newest first</caption>
          <thead>
            <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Changes</th></tr>
          </thead>
          <tbody>
            {changes.map((c, i) => (
              <tr key={c.id} ref={i === focusIndex.current ? firstNew : undefined} tabIndex={i === focusIndex.current ? -1 : undefined}>
                <td data-label="When"><time dateTime={new Date(c.at * 1000).toISOString()}>{when.format(new Date(c.at * 1000))}</time></td>
                <td data-label="Who">{c.by.name ?? (c.by.id ? 'A former admin' : 'The system')}</td>
                <td data-label="What">{ENTITIES[c.entity] ?? c.entity} {ACTIONS[c.action] ?? c.action}{c.revision ? ` (version ${c.revision})` : ''}</td>
                <td data-label="Changes">
                  {c.fields.length === 0 ? 'No field changed' : (
                    <ul>
                      {c.fields.slice(0, 8).map((f) => (
                        <li key={f}><code>{f}</code>: {short(c.changes[f]?.[0])} → {short(c.changes[f]?.[1])}</li>
                      ))}
                      {c.fields.length > 8 && <li>and {c.fields.length - 8} more</li>}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="visually-hidden" role="status">{loading ? 'Loading changes…' : announce}</p>
      {next && (
        <p className="edu-actions"><button type="button" className="btn btn--secondary" disabled={loading} onClick={() => void page(next)}>{loading ? 'Loading…' : 'Load more'}</button></p>
      )}
    </div>
  );
}
