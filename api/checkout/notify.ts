/**
 * E-mails on each outcome: a confirmation to the learner and a notification to the educator, queued in the
 * outbox inside the transaction that records the outcome (so a booking never exists without its e-mails, and
 * the request never waits for a mail server; api/mail sends them). The content (titles of spec 2.15, reference, booking page link,
 * documents, the .ics of dated bookings) is written in api/documents/emails.ts.
 */
import type { Deps } from '../deps.ts';
import type { BookingRow, CheckoutRow, OrderRow } from '../../db/schema/checkout.ts';
import type { CheckoutCatalogue } from '../../db/queries/checkout.ts';
import type { Occurrence } from '../../db/schema.ts';
import { loadBookingView, loadOrderView } from '../../db/queries/bookings.ts';
import { queueMails, type MailMessage } from '../mail/index.ts';
import type { Db } from '../../db/client.ts';
import { confirmationTitleOf } from '../../src/domain/checkout/outcomes.ts';
import type { FlowRules } from '../../src/domain/checkout/flows.ts';
import { stepStateOf } from '../../src/domain/checkout/step-state.ts';
import { educatorOutcomeEmail, learnerOutcomeEmail, requestEmails } from '../documents/emails.ts';

function outcomeKind(row: CheckoutRow): { kind: 'booking' | 'order' | 'request' | 'application'; id: string } | null {
  if (row.booking_id) return { kind: 'booking', id: row.booking_id };
  if (row.order_id) return { kind: 'order', id: row.order_id };
  if (row.request_id) return { kind: 'request', id: row.request_id };
  if (row.application_id) return { kind: 'application', id: row.application_id };
  return null;
}

/**
 * Queues the outcome's e-mails on `q`: the transaction that records the outcome. `recorded`: the booking's or
 * order's row as that transaction inserted it, so its view is made from what the transaction holds.
 */
export async function notifyOutcome(
  deps: Deps, q: Db, row: CheckoutRow, rules: Pick<FlowRules, 'confirmation'>, cat: CheckoutCatalogue, now: number, recorded?: BookingRow | OrderRow,
  occurrence?: Occurrence | null,
): Promise<void> {
  const outcome = outcomeKind(row);
  if (!outcome) return;
  // A request that recorded a booking was an instant booking (spec 4).
  const title = confirmationTitleOf(rules, { approvalRequired: cat.course?.approval_required, instantBooking: !!row.booking_id });
  const messages: MailMessage[] = [];
  if (outcome.kind === 'booking' || outcome.kind === 'order') {
    const known = recorded?.id === outcome.id && cat.course ? {
      educator: cat.educator, course: cat.course,
      // The provider the checkout created its payment with (the one that took it); read when the outcome has another.
      provider: recorded.payment_id === null ? null : recorded.payment_id === row.payment_id && row.payment_provider ? row.payment_provider : undefined,
      occurrence: occurrence ?? undefined,
    } : undefined;
    const view = outcome.kind === 'booking'
      ? await loadBookingView(q, outcome.id, known && { ...known, row: recorded as BookingRow })
      : await loadOrderView(q, outcome.id, known && { ...known, row: recorded as OrderRow });
    if (!view) return;
    const learner = learnerOutcomeEmail(view, title, deps.config);
    const educator = educatorOutcomeEmail(view);
    if (learner) messages.push(learner);
    if (educator) messages.push(educator);
  } else {
    const booker = stepStateOf(row.step_state, 'contactDetails')?.booker?.formResponse ?? {};
    const learnerEmail = typeof booker.system_email === 'string' && booker.system_email ? booker.system_email : null;
    const learnerName = [booker.system_first_name, booker.system_last_name].filter((v) => typeof v === 'string' && v).join(' ');
    messages.push(...requestEmails({
      kind: outcome.kind, id: outcome.id, title, courseName: cat.course?.name ?? '', educatorName: cat.educator.name,
      educatorEmail: cat.educator.email, learnerName, learnerEmail, config: deps.config,
    }));
  }
  await queueMails(q, messages, { now });
}
