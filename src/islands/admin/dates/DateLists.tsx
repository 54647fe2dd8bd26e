/**
 * The Dates screen's lists: the dates to come (each with Edit and Remove), the weekly series (edited or removed as a
 * whole, their dates to come only) and the last 20 past dates, newest first.
 */
import { formatPence } from '../../../domain/money.ts';
import type { SeriesSummary } from '../../../domain/admin/dates.ts';
import { DELIVERY_LABELS, timeRange, weekdayList, type DateView, type DatesMode } from '../../../domain/admin/date-drafts.ts';
import { ConfirmRemove, EditRemoveButtons } from '../editor-rows.tsx';

interface Confirming { confirming: string | null; setConfirming: (id: string | null) => void }

function DateRow({ d, confirming, setConfirming, onEdit, onRemove }: Confirming & { d: DateView; onEdit: () => void; onRemove: () => void }) {
  return (
    <li data-date={d.id}>
      <div className="cat-row-head">
        <h3>{timeRange(d)}</h3>
        <span>
          {d.visibility !== 'public' && <span className="cat-badge" data-kind="warn">Private</span>}{' '}
          {d.seriesId && <span className="cat-badge">Series</span>}{' '}
          {d.parentRef && <span className="cat-badge">Session{d.individuallyBookable ? ', bookable on its own' : ''}</span>}
        </span>
      </div>
      <p className="cat-muted">
        {DELIVERY_LABELS[d.delivery] ?? d.delivery}{d.address ? ` · ${Object.values(d.address).join(', ')}` : ''} · {d.capacity} spaces: {d.booked} booked{d.held ? `, ${d.held} held by learners paying now` : ''}, {d.available} left
        {d.offers.length > 0 && ` · ${d.offers.map((o) => `${o.name} ${o.price ? formatPence(o.price) : 'Free'}`).join(', ')}`}
      </p>
      {confirming === d.id ? (
        <ConfirmRemove label={`Remove ${d.label}?`} onRemove={onRemove} onKeep={() => setConfirming(null)}>Remove {d.label}?</ConfirmRemove>
      ) : (
        <EditRemoveButtons editLabel={`Edit ${d.label}`} removeLabel={`Remove ${d.label}`} onEdit={onEdit} onAsk={() => setConfirming(d.id)} />
      )}
    </li>
  );
}

export function UpcomingDates({ upcoming, open, removeDate, ...confirm }: Confirming & {
  upcoming: DateView[]; open: (mode: DatesMode) => void; removeDate: (d: DateView) => Promise<void>;
}) {
  return (
    <section aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading">Upcoming dates ({upcoming.length})</h2>
      {upcoming.length === 0 ? <p className="admin-empty">No dates to come yet. Add one, or a weekly series.</p> : (
        <ul className="cat-list" data-testid="dates-list">
          {upcoming.map((d) => (
            <DateRow key={d.id} d={d} {...confirm} onEdit={() => open({ kind: 'edit', date: d })} onRemove={() => void removeDate(d)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SeriesRow({ s, dates, confirming, setConfirming, open, removeSeries }: Confirming & {
  s: SeriesSummary; dates: DateView[]; open: (mode: DatesMode) => void; removeSeries: (s: SeriesSummary, dates: DateView[]) => Promise<void>;
}) {
  return (
    <li data-series={s.id}>
      <div className="cat-row-head">
        <h3>{weekdayList(s.weekdays)}, {s.startTime}–{s.endTime}</h3>
        <span className="cat-muted">{s.upcoming} of {s.count} dates to come</span>
      </div>
      <p className="cat-muted">From {s.firstDate} to {s.lastDate}.</p>
      {s.upcoming > 0 && (confirming === s.id ? (
        <ConfirmRemove label="Remove this series?" keepText="Keep them" onRemove={() => void removeSeries(s, dates)} onKeep={() => setConfirming(null)}>
          Remove its {s.upcoming} dates to come?
        </ConfirmRemove>
      ) : (
        <EditRemoveButtons editText="Edit series" removeText="Remove series" onEdit={() => open({ kind: 'series', series: s, dates })} onAsk={() => setConfirming(s.id)} />
      ))}
    </li>
  );
}

export function SeriesList({ series, dates, ...rest }: Confirming & {
  series: SeriesSummary[]; dates: DateView[]; open: (mode: DatesMode) => void; removeSeries: (s: SeriesSummary, dates: DateView[]) => Promise<void>;
}) {
  if (series.length === 0) return null;
  return (
    <section aria-labelledby="series-heading">
      <h2 id="series-heading">Series</h2>
      <ul className="cat-list">
        {series.map((s) => <SeriesRow key={s.id} s={s} dates={dates.filter((d) => d.seriesId === s.id)} {...rest} />)}
      </ul>
    </section>
  );
}

export function PastDates({ past }: { past: DateView[] }) {
  if (past.length === 0) return null;
  return (
    <section aria-labelledby="past-heading">
      <h2 id="past-heading">Past dates ({past.length})</h2>
      <ul className="cat-list">
        {past.slice(-20).reverse().map((d) => (
          <li key={d.id}><h3>{timeRange(d)}</h3><p className="cat-muted">{d.booked} booked of {d.capacity}</p></li>
        ))}
      </ul>
    </section>
  );
}
