/**
 * Spec 2.14 summary sidebar: the course name linked to the course page, "By {educator}" linked to the educator
 * page, detail lines (date, delivery line, "Free cancellation N day(s) prior"), cost lines from the cost
 * summary (discounts and vouchers negative, "Fees" when not absorbed), a Total and Continue. On mobile the
 * details collapse behind "View Full Summary" / "Hide Summary". Prices and cost lines are hidden with
 * hide_pricing except on the marketplace origin (spec 6).
 */
import { useEffect, useMemo } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $continue, $costSummary, $occurrences, $submitting, $summaryOpen, STEP_FORM_ID, loadOccurrences } from '../../stores/checkout.ts';
import { byEducatorText } from '../../domain/checkout/messages.ts';
import { cancellationText, costLines, deliveryLine } from '../../domain/pricing.ts';
import { coursePageUrl, educatorPageUrl } from '../../domain/links.ts';
import { locationText } from '../../domain/locations.ts';
import { formatOccurrenceRange } from '../../lib/format.ts';
import { flowRules, flowTitle } from '../../domain/checkout/flows.ts';
import { stepStateOf } from '../../domain/checkout/step-state.ts';
import { money, useCurrency, usePricesVisible } from './shared.tsx';

export function ContinueButton({ className = '' }: { className?: string }) {
  const cont = useStore($continue);
  const submitting = useStore($submitting);
  if (!cont) return null;
  return (
    <button type="submit" form={STEP_FORM_ID} className={`btn btn--block ${className}`} disabled={!cont.enabled || submitting}>
      {cont.label ?? 'Continue'}
    </button>
  );
}

function useDetailLines(): string[] {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout);
  const occurrences = useStore($occurrences);
  const course = bootstrap.course;
  const educator = bootstrap.educator!;
  // A dated flow (its rules: booking, bookingApplication) shows its occurrence's date and delivery.
  const dated = !!state && flowRules(state.flow).dated;
  const occurrenceShown = dated && !!state.occurrenceId;
  useEffect(() => {
    // The date and delivery lines of the chosen occurrence.
    if (occurrenceShown) void loadOccurrences();
  }, [occurrenceShown]);
  return useMemo(() => {
    const lines: string[] = [];
    // A flow without a course (gift voucher, membership) has no date, delivery or cancellation lines.
    if (!course) return lines;
    if (dated && state.occurrenceId) {
      const occ = occurrences?.find((o) => o._id === state.occurrenceId);
      const picked = stepStateOf(state.stepState, 'date')?.selectedDate;
      const start = occ?.start_datetime ?? picked?.start_datetime;
      const end = occ?.end_datetime ?? picked?.end_datetime;
      if (start && end) lines.push(formatOccurrenceRange(start, end, occ?.timezone));
      if (occ) lines.push(...deliveryLine({ courseType: course.type, delivery: occ.delivery, address: locationText(occ.address), keyword: course.keyword }));
    } else if (course.type === 'on-demand') {
      // The order flow (its course is on-demand).
      lines.push(...deliveryLine({ courseType: 'on-demand', keyword: course.keyword }));
    } else if (state) {
      // What the steps recorded: the requested slot or the preferred dates, and the chosen delivery (request).
      const dates = stepStateOf(state.stepState, 'dates');
      if (dates?.availableDate) {
        lines.push(new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(dates.availableDate)));
      } else if (dates?.preferredDates?.length) {
        lines.push(dates.preferredDates.map((d) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(d.slice(0, 10)))).join(', '));
      }
      const delivery = stepStateOf(state.stepState, 'delivery')?.delivery;
      if (delivery?.type === 'Online') lines.push(...deliveryLine({ courseType: course.type, delivery: 'online' }));
      else if (delivery?.type === 'Educator travels') lines.push(...deliveryLine({ courseType: course.type, delivery: 'in-person', address: delivery.address }));
      else if (delivery?.type === 'Student travels') {
        const location = bootstrap.locations.find((l) => l._id === delivery.location_ref);
        lines.push(...deliveryLine({ courseType: course.type, delivery: 'in-person', address: location?.formatted.replace(/\n/g, ', ') }));
      }
    }
    const cancellation = cancellationText(educator.cancellationAllowed, course.type);
    if (cancellation) lines.push(cancellation);
    return lines;
  }, [state, dated, occurrences, course, educator, bootstrap.locations]);
}

export default function Summary() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout);
  const summary = useStore($costSummary);
  const open = useStore($summaryOpen);
  const pricesVisible = usePricesVisible();
  const currency = useCurrency();
  const details = useDetailLines();
  const course = bootstrap.course;
  const educator = bootstrap.educator!;
  const origin = state?.origin ?? bootstrap.origin;
  const courseHref = course ? coursePageUrl(origin, bootstrap.host, educator.slug, course.slug, bootstrap.protocol) : null;
  const educatorHref = educatorPageUrl(origin, bootstrap.host, educator.slug, bootstrap.protocol);
  const newTab = bootstrap.context === 'embed' ? { target: '_blank', rel: 'noopener' } : {};
  const lines = summary && pricesVisible ? costLines(summary, summary.platform_fee) : [];
  const total = summary?.total_cost ?? state?.totalCost ?? null;
  const completed = state?.status === 'completed';
  const flow = state?.flow ?? bootstrap.flow;

  return (
    <aside className="checkout-summary panel" aria-labelledby="checkout-summary-heading">
      <h2 id="checkout-summary-heading" className="visually-hidden">Summary</h2>
      <p className="checkout-summary__course">
        {course && courseHref ? <a href={courseHref} {...newTab}>{course.name}</a> : flow ? flowTitle(flow) : ''}
      </p>
      <p className="checkout-summary__educator small">
        <a href={educatorHref} {...newTab}>{byEducatorText(educator.name)}</a>
      </p>
      <button
        type="button"
        className="link-button checkout-summary__toggle"
        aria-expanded={open}
        aria-controls="checkout-summary-details"
        onClick={() => $summaryOpen.set(!open)}
      >
        {open ? 'Hide Summary' : 'View Full Summary'}
      </button>
      <div id="checkout-summary-details" className="checkout-summary__details" data-open={open}>
        {details.length > 0 && (
          <ul className="plain-list checkout-summary__lines small">
            {details.map((line) => <li key={line}>{line}</li>)}
          </ul>
        )}
        {lines.length > 0 && (
          <dl className="cost-lines small">
            {lines.map((line, i) => (
              <div key={`${line.kind}-${i}`} className={`cost-line cost-line--${line.kind}`}>
                <dt>{line.text}</dt>
                <dd>{money(line.amount, currency)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      {pricesVisible && total !== null && (
        <p className="checkout-summary__total">
          <span>Total</span>
          <strong aria-live="polite">{money(total, currency)}</strong>
        </p>
      )}
      {!completed && <ContinueButton className="checkout-summary__continue" />}
    </aside>
  );
}
