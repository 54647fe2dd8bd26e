/**
 * The membership e-mails to the learner: joined, renewed, renewal failed, cancelled. Each is queued in the e-mail
 * outbox (api/mail: sent by its worker, retried with backoff) inside the transaction that records the change, so
 * the change and its e-mail commit together or not at all: a process that dies right after the commit still has
 * the e-mail to send when it (or another) starts again, and a failure to queue undoes the change.
 */
import type { Deps } from '../deps.ts';
import type { Q } from '../../db/queries/checkout.ts';
import { queueMail } from '../mail/index.ts';
import { formatPence } from '../../src/domain/money.ts';
import { formatDay } from '../../src/lib/format.ts';

export type MembershipMailKind = 'joined' | 'renewed' | 'renewal-failed' | 'cancelled';

export const MEMBERSHIP_MAIL_SUBJECTS: Record<MembershipMailKind, (plan: string, educator: string) => string> = {
  joined: (plan, educator) => `Welcome to ${plan} – ${educator}`,
  renewed: (plan) => `Your ${plan} membership has renewed`,
  'renewal-failed': (plan) => `We could not renew your ${plan} membership`,
  cancelled: (plan) => `Your ${plan} membership is cancelled`,
};

/**
 * Queues the `kind` e-mail of a membership on `q`: the transaction that records what the e-mail tells (the
 * membership as that transaction sees it is what the e-mail says).
 */
export async function queueMembershipMail(q: Q, deps: Pick<Deps, 'config' | 'now'>, kind: MembershipMailKind, membershipId: string): Promise<void> {
  const m = await q.selectFrom('memberships as m').innerJoin('membership_plans as p', 'p.id', 'm.plan_id')
    .innerJoin('educators as e', 'e.id', 'm.educator_id').innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.status', 'm.price', 'm.currency', 'm.current_period_end', 'm.credits_left', 'm.next_attempt_at', 'm.end_reason',
      'p.name as plan', 'p.credits_per_period', 'e.name as educator', 'u.email', 'u.first_name'])
    .where('m.id', '=', membershipId).executeTakeFirst();
  if (!m) return;
  const until = formatDay(Number(m.current_period_end));
  const price = formatPence(Number(m.price), m.currency);
  const hello = m.first_name ? `Hello ${m.first_name},` : 'Hello,';
  const credits = Number(m.credits_per_period) > 0 ? ` You have ${m.credits_left} ${Number(m.credits_left) === 1 ? 'credit' : 'credits'} to use.` : '';
  const body: Record<MembershipMailKind, string> = {
    joined: `You are now a member of ${m.educator}: ${m.plan} (${price}). Your benefits apply when you book while logged in.${credits} Next renewal: ${until}.`,
    renewed: `Your ${m.plan} membership of ${m.educator} has renewed (${price}).${credits} Next renewal: ${until}.`,
    'renewal-failed': m.status === 'ended'
      ? `We could not take the payment of ${price} for your ${m.plan} membership of ${m.educator}, after several attempts, so the membership has ended.`
      : `We could not take the payment of ${price} for your ${m.plan} membership of ${m.educator}. Your member benefits are paused; we will try again on ${formatDay(Number(m.next_attempt_at))}.`,
    cancelled: `Your ${m.plan} membership of ${m.educator} is cancelled. Your benefits continue until ${until}, and you will not be charged again.`,
  };
  await queueMail(q, {
    to: m.email, subject: MEMBERSHIP_MAIL_SUBJECTS[kind](m.plan, m.educator), text: `${hello}\n\n${body[kind]}\n\nYour memberships: ${deps.config.PUBLIC_PROTOCOL}://${deps.config.PUBLIC_HOST}/profile\n`,
    tag: `membership-${kind}`,
  }, { now: deps.now() });
}
