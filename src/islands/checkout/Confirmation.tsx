/**
 * Spec 2.15 confirmation screens, per flow and outcome (texts from src/domain/checkout/outcomes.ts):
 * booking ("Booking Confirmed" / "Your Booking is Awaiting Approval", "Check your inbox for a confirmation
 * email", "Booking reference: {id}", "View & Manage Booking" or "Access {keyword|Course}", "Pay Invoice",
 * "Download Invoice" / "Download Receipt" unless everything was free, "Add to Calendar"); order; request
 * (booking buttons when it became a booking); group/date request; application. Then the share prompt unless
 * hide_social_prompts.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, $costSummary } from '../../stores/checkout.ts';
import {
  confirmationTitle, documentButtonLabel, educatorWillBeInTouchText, manageButtonLabel, referenceText, requestSentText, showPayInvoice, showSharePrompt,
} from '../../domain/checkout/outcomes.ts';
import { coursePageUrl, mainOrigin, payInvoiceLink } from '../../domain/links.ts';
import { SHARE_HEADING, selectedLinePrices, shareLinks, shareText } from '../../domain/checkout/ui.ts';
import { API_ORIGIN } from '../../lib/api.ts';
import { STEP_HEADING_ID } from './shared.tsx';

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
  /**
   * A page link from the outcome (spec 2.4 links are already per context): relative links stay on this site,
   * except inside the embed, where only /embed pages may be framed — they open on the main site in a new tab,
   * like absolute links (another site).
   */
  const pageLink = (href: string) => {
    const absolute = /^https?:\/\//.test(href);
    if (!absolute && !embed) return { href };
    return { href: absolute ? href : `${main}${href}`, target: '_blank', rel: 'noopener' };
  };

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const bookingId = state.bookingId ?? (outcome?.kind === 'booking' ? outcome.id : null);
  const title = outcome?.title ?? confirmationTitle(state.flow, { approvalRequired: course.approvalRequired, instantBooking: state.flow === 'request' && !!bookingId });
  const paymentMethod = outcome?.paymentMethod ?? (state.stepState.payment?.state?.paymentMethod as string | undefined) ?? null;
  const costs = summary ?? state.costSummary ?? null;

  let body: ReactNode = null;
  if (bookingId) {
    const documentLabel = documentButtonLabel(selectedLinePrices(costs), outcome?.paymentState);
    body = (
      <>
        <p>Check your inbox for a confirmation email</p>
        <p className="confirmation__reference">{referenceText('booking', bookingId)}</p>
        <div className="confirmation__actions">
          <a className="btn" {...pageLink(outcome?.links?.manage ?? '/profile')}>{manageButtonLabel(state.flow, course)}</a>
          {showPayInvoice(paymentMethod) && (
            <a className="btn btn--secondary" {...pageLink(outcome?.links?.payInvoice ?? payInvoiceLink('booking', bookingId))}>Pay Invoice</a>
          )}
          {documentLabel && outcome?.links?.invoice && (
            <a className="btn btn--secondary" href={apiLink(outcome.links.invoice)!} target="_blank" rel="noopener">{documentLabel}</a>
          )}
          <a className="btn btn--secondary" href={apiLink(outcome?.links?.ical ?? `/api/bookings/${bookingId}/ical`)!} download={`${bookingId}.ics`}>Add to Calendar</a>
        </div>
      </>
    );
  } else if (state.orderId) {
    const documentLabel = documentButtonLabel(selectedLinePrices(costs, true), outcome?.paymentState);
    body = (
      <>
        <p className="confirmation__reference">{referenceText('order', state.orderId)}</p>
        <div className="confirmation__actions">
          <a className="btn" {...pageLink(outcome?.links?.manage ?? '/profile')}>{manageButtonLabel('order', course)}</a>
          {showPayInvoice(paymentMethod) && (
            <a className="btn btn--secondary" {...pageLink(outcome?.links?.payInvoice ?? payInvoiceLink('order', state.orderId))}>Pay Invoice</a>
          )}
          {documentLabel && outcome?.links?.invoice && (
            <a className="btn btn--secondary" href={apiLink(outcome.links.invoice)!} target="_blank" rel="noopener">{documentLabel}</a>
          )}
        </div>
      </>
    );
  } else if (state.requestId) {
    const text = state.flow === 'request' ? requestSentText(educator.name) : educatorWillBeInTouchText(educator.name);
    body = (
      <>
        <p>{text}</p>
        <p className="confirmation__reference">{referenceText('request', state.requestId)}</p>
      </>
    );
  } else if (outcome?.kind === 'membership') {
    body = (
      <>
        <p>Check your inbox for a confirmation email</p>
        <p className="confirmation__reference">{referenceText('membership', outcome.id)}</p>
        <div className="confirmation__actions">
          <a className="btn" {...pageLink(outcome.links?.manage ?? '/profile')}>View Memberships</a>
          {outcome.links?.invoice && <a className="btn btn--secondary" href={apiLink(outcome.links.invoice)!} target="_blank" rel="noopener">Download Receipt</a>}
        </div>
      </>
    );
  } else if (state.applicationId ?? (outcome?.kind === 'application' ? outcome.id : null)) {
    body = <p className="confirmation__reference">{referenceText('application', (state.applicationId ?? outcome!.id)!)}</p>;
  } else if (outcome) {
    // Any other kind (gift voucher, membership): the flow describes its text and buttons.
    body = (
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

  return (
    <section className="checkout-step confirmation stack" aria-labelledby={STEP_HEADING_ID}>
      <h2 id={STEP_HEADING_ID} ref={headingRef} tabIndex={-1} className="checkout-step__title">{title}</h2>
      {body}
      <SharePrompt />
    </section>
  );
}
