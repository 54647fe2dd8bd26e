/**
 * E-mails on each outcome: a confirmation to the learner and a notification to the educator
 * (through api/mail: the outbox by default, SMTP when configured). Sent after the transaction commits;
 * a failure to send never undoes a booking.
 */
import type { Deps } from '../app.ts';
import type { CheckoutRow } from '../../db/schema/checkout.ts';
import type { CheckoutCatalogue } from '../../db/queries/checkout.ts';
import { mailerFor } from '../mail/index.ts';
import { confirmationTitle, referenceText } from '../../src/domain/checkout/outcomes.ts';
import { formatPence } from '../../src/domain/money.ts';
import type { Flow } from '../../src/domain/checkout/flows.ts';

function outcomeKind(row: CheckoutRow): { kind: 'booking' | 'order' | 'request' | 'application'; id: string } | null {
  if (row.booking_id) return { kind: 'booking', id: row.booking_id };
  if (row.order_id) return { kind: 'order', id: row.order_id };
  if (row.request_id) return { kind: 'request', id: row.request_id };
  if (row.application_id) return { kind: 'application', id: row.application_id };
  return null;
}

export async function notifyOutcome(deps: Deps, row: CheckoutRow, cat: CheckoutCatalogue): Promise<void> {
  const outcome = outcomeKind(row);
  if (!outcome) return;
  const contact = (row.step_state.contactDetails?.state ?? {}) as { booker?: { formResponse?: Record<string, unknown> } };
  const booker = contact.booker?.formResponse ?? {};
  const learnerEmail = typeof booker.system_email === 'string' ? booker.system_email : null;
  const learnerName = [booker.system_first_name, booker.system_last_name].filter((v) => typeof v === 'string' && v).join(' ') || 'there';
  const title = confirmationTitle(row.flow as Flow, { approvalRequired: cat.course.approval_required, instantBooking: row.flow === 'request' && !!row.booking_id });
  const reference = referenceText(outcome.kind, outcome.id);
  const total = row.total_cost ? formatPence(row.total_cost, row.currency) : null;
  const mailer = mailerFor(deps);
  if (learnerEmail) {
    await mailer.send({
      to: learnerEmail,
      subject: `${title}: ${cat.course.name}`,
      text: [
        `Hi ${learnerName},`,
        '',
        `${title} — ${cat.course.name} with ${cat.educator.name}.`,
        reference,
        ...(total ? [`Total: ${total}`] : []),
        '',
        'You can see it any time under My Account → Profile.',
      ].join('\n'),
      tag: `${outcome.kind}-confirmation`,
    });
  }
  if (cat.educator.email) {
    await mailer.send({
      to: cat.educator.email,
      subject: `New ${outcome.kind}: ${cat.course.name}`,
      text: [
        `${learnerName}${learnerEmail ? ` <${learnerEmail}>` : ''} — new ${outcome.kind} for ${cat.course.name}.`,
        reference,
        ...(total ? [`Total: ${total}`] : []),
      ].join('\n'),
      tag: `${outcome.kind}-educator-notification`,
    });
  }
}
