/**
 * Spec 2.15 confirmation screens, per flow and outcome (texts from src/domain/checkout/outcomes.ts):
 * booking ("Booking Confirmed" / "Your Booking is Awaiting Approval", "Check your inbox for a confirmation
 * email", "Booking reference: {id}", "View & Manage Booking" or "Access {keyword|Course}", "Pay Invoice",
 * "Download Invoice" / "Download Receipt" unless everything was free, "Add to Calendar"); order; request
 * (booking buttons when it became a booking); group/date request; application. Then the share prompt unless
 * hide_social_prompts.
 */
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $costSummary } from '../../stores/checkout.ts';
import {
  confirmationTitleOf, documentButtonLabel, educatorWillBeInTouchText, manageLabel, referenceText, requestSentText, showPayInvoice, showSharePrompt,
} from '../../domain/checkout/outcomes.ts';
import { coursePageUrl, mainOrigin, payInvoiceLink } from '../../domain/links.ts';
import { SHARE_HEADING, selectedLinePrices, shareLinks, shareText } from '../../domain/checkout/ui.ts';
import { API_ORIGIN } from '../../lib/api.ts';
import { STEP_HEADING_ID } from './shared.tsx';
import { stepStateOf } from '../../domain/checkout/step-state.ts';
import { flowRules, type FlowRules } from '../../domain/checkout/flows.ts';
import type { CheckoutOutcome, CheckoutState, CostSummaryView } from './types.ts';

function apiLink(path: string | null | undefined): string | null {
  if (!path) return null;
  return path.startsWith('/api/') ? `${API_ORIGIN}${path}` : path;
}

export function SharePrompt() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout);
  const course = bootstrap.course;
  const educator = bootstrap.educator!;
  // The share prompt shares a course; a checkout without one (gift voucher, membership) has none to share.
  if (!course || !showSharePrompt(educator.featureFlags)) return null;
  const url = coursePageUrl(state?.origin ?? bootstrap.origin, bootstrap.host, educator.slug, course.slug, bootstrap.protocol);
  const text = shareText(course.name, educator.name);
  return (
    <section className="share stack" aria-labelledby="share-heading">
      <h3 id="share-heading">{SHARE_HEADING}</h3>
      <p>
        <a href={url} target="_blank" rel="noopener">{text}</a>
      </p>
      <ul className="chips">
        {shareLinks(url, text).map((l) => (
          <li key={l.label}>
            <a className="chip" href={l.href} target="_blank" rel="noopener nofollow">
              {l.label}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

type LinkProps = { href: string; target?: string; rel?: string };
type PageLink = (href: string) => LinkProps;
type ConfirmationCourse = { approvalRequired: boolean; type: string | null; keyword: string | null; name: string; slug: string };

/**
 * A page link from the outcome (spec 2.4 links are already per context): relative links stay on this site,
 * except inside the embed, where only /embed pages may be framed — they open on the main site in a new tab,
 * like absolute links (another site).
 */
function pageLinkProps(href: string, embed: boolean, main: string): LinkProps {
  const absolute = /^https?:\/\//.test(href);
  if (!absolute && !embed) return { href };
  return { href: absolute ? href : `${main}${href}`, target: '_blank', rel: 'noopener' };
}

/** A booking's or an order's reference and buttons (a booking's also "Check your inbox…" and "Add to Calendar"). */
function PurchaseBody({ kind, id, course, outcome, paymentMethod, costs, pageLink }: {
  kind: 'booking' | 'order';
  id: string;
  course: ConfirmationCourse;
  outcome: CheckoutOutcome | null;
  paymentMethod: string | null;
  costs: CostSummaryView | null;
  pageLink: PageLink;
}) {
  const documentLabel = documentButtonLabel(selectedLinePrices(costs, kind === 'order'), outcome?.paymentState);
  return (
    <>
      {kind === 'booking' && <p>Check your inbox for a confirmation email</p>}
      <p className="confirmation__reference">{referenceText(kind, id)}</p>
      <div className="confirmation__actions">
        <a className="btn" {...pageLink(outcome?.links?.manage ?? '/profile')}>{manageLabel(kind, course)}</a>
        {showPayInvoice(paymentMethod) && (
          <a className="btn btn--secondary" {...pageLink(outcome?.links?.payInvoice ?? payInvoiceLink(kind, id))}>Pay Invoice</a>
        )}
        {documentLabel && outcome?.links?.invoice && (
          <a className="btn btn--secondary" href={apiLink(outcome.links.invoice)!} target="_blank" rel="noopener">{documentLabel}</a>
        )}
        {kind === 'booking' && (
          <a className="btn btn--secondary" href={apiLink(outcome?.links?.ical ?? `/api/bookings/${id}/ical`)!} download={`${id}.ics`}>Add to Calendar</a>
        )}
      </div>
    </>
  );
}

function MembershipBody({ outcome, pageLink }: { outcome: CheckoutOutcome; pageLink: PageLink }) {
  return (
    <>
      <p>Check your inbox for a confirmation email</p>
      <p className="confirmation__reference">{referenceText('membership', outcome.id)}</p>
      <div className="confirmation__actions">
        <a className="btn" {...pageLink(outcome.links?.manage ?? '/profile')}>View Memberships</a>
        {outcome.links?.invoice && <a className="btn btn--secondary" href={apiLink(outcome.links.invoice)!} target="_blank" rel="noopener">Download Receipt</a>}
      </div>
    </>
  );
}

/** Any other kind (gift voucher, membership): the flow describes its text and buttons. */
function DescribedOutcomeBody({ outcome, pageLink }: { outcome: CheckoutOutcome; pageLink: PageLink }) {
  return (
    <>
      {outcome.message && <p>{outcome.message}</p>}
      <p className="confirmation__reference">{referenceText(outcome.kind, outcome.reference)}</p>
      {(outcome.actions ?? []).length > 0 && (
        <div className="confirmation__actions">
          {(outcome.actions ?? []).map((a, i) => (
            <a key={a.href} className={`btn${i > 0 ? ' btn--secondary' : ''}`} {...(a.href.startsWith('/api/') ? { href: apiLink(a.href)!, target: '_blank', rel: 'noopener' } : pageLink(a.href))}>{a.label}</a>
          ))}
        </div>
      )}
    </>
  );
}

/** The confirmation's text and buttons for what the checkout recorded (first match: booking, order, request, membership, application, other). */
function ConfirmationBody({ state, rules, bookingId, course, educatorName, paymentMethod, costs, pageLink }: {
  state: CheckoutState;
  rules: FlowRules;
  bookingId: string | null;
  course: ConfirmationCourse;
  educatorName: string;
  paymentMethod: string | null;
  costs: CostSummaryView | null;
  pageLink: PageLink;
}) {
  const outcome = state.outcome ?? null;
  const purchase = { course, outcome, paymentMethod, costs, pageLink };
  if (bookingId) return <PurchaseBody kind="booking" id={bookingId} {...purchase} />;
  if (state.orderId) return <PurchaseBody kind="order" id={state.orderId} {...purchase} />;
  if (state.requestId) {
    const text = rules.confirmation.requestLine === 'sent' ? requestSentText(educatorName) : educatorWillBeInTouchText(educatorName);
    return (
      <>
        <p>{text}</p>
        <p className="confirmation__reference">{referenceText('request', state.requestId)}</p>
      </>
    );
  }
  if (outcome?.kind === 'membership') return <MembershipBody outcome={outcome} pageLink={pageLink} />;
  if (state.applicationId ?? (outcome?.kind === 'application' ? outcome.id : null)) {
    return <p className="confirmation__reference">{referenceText('application', (state.applicationId ?? outcome!.id)!)}</p>;
  }
  if (outcome) return <DescribedOutcomeBody outcome={outcome} pageLink={pageLink} />;
  return null;
}

export default function Confirmation() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const summary = useStore($costSummary);
  const course = bootstrap.course ?? { approvalRequired: false, type: null, keyword: null, name: '', slug: '' };
  const educator = bootstrap.educator!;
  const outcome = state.outcome ?? null;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const embed = bootstrap.context === 'embed';
  const main = mainOrigin(bootstrap.host, bootstrap.protocol);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const rules = flowRules(state.flow);
  const bookingId = state.bookingId ?? (outcome?.kind === 'booking' ? outcome.id : null);
  // A request that recorded a booking was an instant booking (spec 4): the flow's rules say which heading it has.
  const title = outcome?.title ?? confirmationTitleOf(rules, { approvalRequired: course.approvalRequired, instantBooking: !!bookingId });
  const paymentMethod = outcome?.paymentMethod ?? stepStateOf(state.stepState, 'payment')?.paymentMethod ?? null;
  const costs = summary ?? state.costSummary ?? null;

  return (
    <section className="checkout-step confirmation stack" aria-labelledby={STEP_HEADING_ID}>
      <h2 id={STEP_HEADING_ID} ref={headingRef} tabIndex={-1} className="checkout-step__title">{title}</h2>
      <ConfirmationBody
        state={state}
        rules={rules}
        bookingId={bookingId}
        course={course}
        educatorName={educator.name}
        paymentMethod={paymentMethod}
        costs={costs}
        pageLink={(href) => pageLinkProps(href, embed, main)}
      />
      <SharePrompt />
    </section>
  );
}
