/**
 * "Cancel booking" on the booking page (spec 9 "Free cancellation N day(s) prior"): a button that asks for
 * confirmation first, then POST /api/bookings/{bookingId}/cancel with the session cookie (the API checks the
 * owner, the window and CSRF). On success the page reloads to show the cancelled booking; a problem is shown
 * as "{title}: {detail}" in an alert.
 */
import { useEffect, useRef, useState } from 'react';
import { apiUrl, readError } from '../../lib/api.ts';

export interface CancelBookingProps {
  bookingId: string;
  /** "Free cancellation N day(s) prior" */
  policyText: string;
  /** The last day a cancellation is accepted, e.g. '1 July 2027'. */
  deadlineText: string | null;
  spaces: number;
  /** e.g. '£60.00 will be refunded to your Card.' */
  refundText: string | null;
}

export default function CancelBooking({ bookingId, policyText, deadlineText, spaces, refundText }: CancelBookingProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) headingRef.current?.focus();
  }, [confirming]);

  async function cancel() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(apiUrl(`/bookings/${encodeURIComponent(bookingId)}/cancel`), {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      if (!res.ok) {
        const problem = await readError(res);
        setError(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
        setBusy(false);
        return;
      }
      setDone(true);
      window.location.reload();
    } catch {
      setError('Something went wrong. Please try again.');
      setBusy(false);
    }
  }

  function keep() {
    setConfirming(false);
    setError(null);
    requestAnimationFrame(() => openRef.current?.focus());
  }

  if (done) return <p role="status" className="alert alert--info">Booking cancelled.</p>;

  return (
    <div className="booking-cancel stack" data-testid="cancel-booking">
      <p className="muted small">
        {policyText}{deadlineText ? ` — you can cancel until ${deadlineText}.` : '.'}
      </p>
      {!confirming ? (
        <p>
          <button ref={openRef} type="button" className="btn btn--secondary" onClick={() => setConfirming(true)}>Cancel booking</button>
        </p>
      ) : (
        <div
          className="panel booking-cancel__confirm stack"
          role="group"
          aria-labelledby="cancel-confirm-heading"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) keep();
          }}
        >
          <h3 id="cancel-confirm-heading" ref={headingRef} tabIndex={-1}>Cancel this booking?</h3>
          <p>
            Your {spaces === 1 ? 'space' : `${spaces} spaces`} will be released for someone else.{refundText ? ` ${refundText}` : ''} This cannot be undone.
          </p>
          {error && <p role="alert" className="alert alert--danger">{error}</p>}
          <p className="booking-cancel__actions">
            <button type="button" className="btn" onClick={cancel} disabled={busy} aria-busy={busy}>
              {busy ? 'Cancelling…' : 'Yes, cancel booking'}
            </button>
            <button type="button" className="btn btn--ghost" onClick={keep} disabled={busy}>Keep booking</button>
          </p>
        </div>
      )}
    </div>
  );
}
