/**
 * Spec 2.14 "Date" ("Select Date"): the public occurrences, 10 per page; picking one continues
 * ("occurrence picked"). A spinner shows while loading or when there are no occurrences.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $occurrences, $submitting, loadOccurrences, submitAction } from '../../../stores/checkout.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { DATE_STEP_PAGE_SIZE } from '../../../domain/checkout/constants.ts';
import { deliveryLine, pricingDisplay } from '../../../domain/pricing.ts';
import { locationText } from '../../../domain/locations.ts';
import { formatOccurrenceRange } from '../../../lib/format.ts';
import { Spinner, StepHeading, useContinue, useCurrency, usePricesVisible } from '../shared.tsx';

export default function DateStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const occurrences = useStore($occurrences);
  const submitting = useStore($submitting);
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const [page, setPage] = useState(0);
  useContinue(null);

  useEffect(() => {
    void loadOccurrences();
  }, []);

  const upcoming = useMemo(() => {
    const now = Math.floor(Date.now() / 1000);
    return (occurrences ?? []).filter((o) => o.start_datetime > now);
  }, [occurrences]);
  const pages = Math.max(1, Math.ceil(upcoming.length / DATE_STEP_PAGE_SIZE));
  const shown = upcoming.slice(page * DATE_STEP_PAGE_SIZE, (page + 1) * DATE_STEP_PAGE_SIZE);
  const course = bootstrap.course!;

  return (
    <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
      <StepHeading>{STEP_TITLES.date}</StepHeading>
      {occurrences === null || upcoming.length === 0 ? (
        <Spinner label={occurrences === null ? 'Loading dates' : 'No dates available yet'} />
      ) : (
        <>
          <ul className="date-list">
            {shown.map((o) => {
              const soldOut = o.available_spaces !== null && o.available_spaces <= 0;
              const selected = state.occurrenceId === o._id;
              const delivery = deliveryLine({ courseType: course.type, delivery: o.delivery, address: locationText(o.address), keyword: course.keyword });
              const price = pricesVisible ? pricingDisplay({ type: 'price-offers', offers: o.offers.map((x) => ({ _id: x._id, price: x.price })) }, currency) : null;
              return (
                <li key={o._id}>
                  <button
                    type="button"
                    className={`date-option${selected ? ' is-selected' : ''}`}
                    disabled={soldOut || submitting}
                    aria-pressed={selected}
                    onClick={() => void submitAction('occurrence picked', { occurrence_id: o._id })}
                  >
                    <span className="date-option__when">{formatOccurrenceRange(o.start_datetime, o.end_datetime, o.timezone)}</span>
                    {delivery.length > 0 && <span className="date-option__where small muted">{delivery.join(' · ')}</span>}
                    <span className="date-option__meta small">
                      {price && <span>{price}</span>}
                      <span>{soldOut ? 'Sold out' : o.available_spaces !== null ? `${o.available_spaces} ${o.available_spaces === 1 ? 'space' : 'spaces'} left` : ''}</span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label="Dates pages">
              <button type="button" className="btn btn--secondary btn--small" disabled={page === 0} onClick={() => setPage(page - 1)}>Previous</button>
              <span className="small" aria-live="polite">Page {page + 1} of {pages}</span>
              <button type="button" className="btn btn--secondary btn--small" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>Next</button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
