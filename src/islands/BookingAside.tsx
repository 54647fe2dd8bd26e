/**
 * The course page's booking aside (spec 2.13 (6)): price, the chosen or next date, and the buttons.
 * The booking button opens the checkout:
 *   /checkout?flow={flow}&course={courseId}&occurrence={occurrenceId} (marketplace, minisite)
 *   /embed/checkout?… in the embed (only /embed pages may be framed)
 * plus `origin` (embed | landing_page) outside the marketplace and, in the embed, the parent page
 * as `parent_window_url` when embed.js passed it. Memberships: what a member would pay, linking to the plans; a
 * signed-in member with credits left on a plan that covers the course is offered "Use 1 credit" instead, which
 * opens the checkout with the credit chosen (the page is the same for everyone, so this is asked once hydrated).
 */
import { useEffect, useMemo, useState } from 'react';
import type { OccurrenceView } from '../lib/types.ts';
import type { Flow } from '../domain/checkout/flows.ts';
import { checkoutPageHref } from '../domain/checkout/page-link.ts';
import { formatOccurrenceRange } from '../lib/format.ts';
import { initSelectedOccurrence } from '../stores/course.ts';
import { useCourseStores } from './course-stores.ts';
import { embedParentUrl } from '../stores/embed-parent.ts';
import { bookableOccurrences, isSoldOut } from '../domain/listing.ts';
import { withQuery } from '../domain/links.ts';
import { memberCreditText } from '../domain/member-credit.ts';
import { apiFetch } from '../stores/identity.ts';

export interface BookingAsideProps {
  courseId: string;
  flow: Flow;
  /** Scheduled courses (class, blended) choose dates; on-demand and on-request do not. */
  scheduled: boolean;
  context: 'marketplace' | 'minisite' | 'embed';
  priceText: string | null;
  vatText: string | null;
  cancellationText: string | null;
  initialOccurrences: Pick<OccurrenceView, '_id' | 'start_datetime' | 'end_datetime' | 'available_spaces' | 'spaces'>[];
  /** The course's spaces (the capacity of dates that have none of their own). */
  courseSpaces: number | null;
  /** The enquiry page; null when the educator cannot be contacted (no enquiry button). */
  enquiryHref: string | null;
  waitlistHref: string;
  /** Label of the main button per flow. */
  bookLabel: string;
  /** Spec 2.13 (6) "receives memberships": what a member would pay or what a credit does, null when no plan covers the course. */
  memberText?: string | null;
  /** The educator's memberships page in this context. */
  membershipsHref?: string | null;
}

function checkoutHref(flow: Flow, courseId: string, context: BookingAsideProps['context'], occurrenceId?: string | null, parentUrl?: string | null, credit = false): string {
  // `credit`: the Spaces step starts with "Use 1 credit" ticked.
  return checkoutPageHref(context, flow, { course: courseId, occurrence: occurrenceId, credit: credit ? '1' : null }, parentUrl);
}

type Member = { planName: string; creditsLeft: number };

/** Only where a plan covers the course (`memberText`): the visitor's plan when they are a member with credits left. */
function useMemberWithCredits(courseId: string, memberText: string | null | undefined): Member | null {
  const [member, setMember] = useState<Member | null>(null);
  useEffect(() => {
    if (!memberText) return;
    let cancelled = false;
    apiFetch(`/memberships/benefits?courseId=${encodeURIComponent(courseId)}`)
      .then((res) => (res.ok ? res.json() : { member: null }))
      .then((body: { member: Member | null }) => {
        if (!cancelled) setMember(body.member && body.member.creditsLeft > 0 ? body.member : null);
      })
      .catch(() => {
        /* the line stays as every visitor sees it */
      });
    return () => {
      cancelled = true;
    };
  }, [courseId, memberText]);
  return member;
}

type Dated = BookingAsideProps['initialOccurrences'][number];

/** The chosen date (said to be sold out when it is), else the next bookable one, else that there are none. */
function DateLine({ selected, selectedSoldOut, next, count }: { selected: Dated | null; selectedSoldOut: boolean; next: Dated | null; count: number }) {
  const hasDates = count > 0;
  return (
    <div className="small">
      {selected ? (
        <p style={{ margin: 0 }}>
          <strong>Selected date:</strong><br />{formatOccurrenceRange(selected.start_datetime, selected.end_datetime)}
          {selectedSoldOut && <><br /><span className="badge">Sold out</span>{hasDates && <> <a href="#dates">Choose another date</a></>}</>}
        </p>
      ) : next ? (
        <p style={{ margin: 0 }}>
          <strong>Next date:</strong><br />{formatOccurrenceRange(next.start_datetime, next.end_datetime)}
          {count > 1 && <><br /><a href="#dates">{count} dates available</a></>}
        </p>
      ) : (
        <p style={{ margin: 0 }}>There are no upcoming dates at the moment.</p>
      )}
    </div>
  );
}

/** The member line: "Use 1 credit" for a member with credits who can book, else what members get. */
function MemberLine({ member, canUseCredit, creditHref, memberText, membershipsHref }: {
  member: Member | null; canUseCredit: boolean; creditHref: string; memberText?: string | null; membershipsHref?: string | null;
}) {
  if (member && canUseCredit) {
    return (
      <p className="small member-price" style={{ margin: 0 }} data-testid="member-price">
        <a href={creditHref}>{memberCreditText(member)}</a>
      </p>
    );
  }
  if (!memberText) return null;
  return (
    <p className="small member-price" style={{ margin: 0 }} data-testid="member-price">
      {membershipsHref ? <a href={membershipsHref}>{memberText}</a> : memberText}
    </p>
  );
}

export default function BookingAside(props: BookingAsideProps) {
  const { courseId, flow, scheduled, context, priceText, vatText, cancellationText, initialOccurrences, courseSpaces, enquiryHref, waitlistHref, bookLabel, memberText, membershipsHref } = props;
  const { live, selectedId } = useCourseStores();
  const [parentUrl, setParentUrl] = useState<string | null>(null);

  useEffect(() => {
    initSelectedOccurrence();
    if (context === 'embed') setParentUrl(embedParentUrl());
  }, [context]);

  const member = useMemberWithCredits(courseId, memberText);

  // Dates that can still be booked: "Next date" is never a sold-out one (the dates list shows those as sold out).
  const occurrences = useMemo(() => {
    const list = live ?? initialOccurrences;
    return bookableOccurrences(list, live ? Math.floor(Date.now() / 1000) : Number.NEGATIVE_INFINITY, courseSpaces);
  }, [live, initialOccurrences, courseSpaces]);

  const all = live ?? initialOccurrences;
  const selected = selectedId ? all.find((o) => o._id === selectedId) ?? null : null;
  // A chosen date that is sold out is said to be, and offers its waitlist: never booked, never swapped for another.
  const selectedSoldOut = !!selected && isSoldOut(selected, courseSpaces);
  const hasDates = occurrences.length > 0;
  const href = (chosen: Flow, occurrenceId?: string | null, credit = false) => checkoutHref(chosen, courseId, context, occurrenceId, parentUrl, credit);

  return (
    <div className="panel booking-aside stack">
      {priceText && (
        <p style={{ margin: 0 }}>
          <span style={{ fontSize: '1.5rem', fontWeight: 800 }}>{priceText}</span>
          {vatText && <span className="muted small"> {vatText}</span>}
        </p>
      )}
      {scheduled && <DateLine selected={selected} selectedSoldOut={selectedSoldOut} next={occurrences[0] ?? null} count={occurrences.length} />}
      <MemberLine member={member} canUseCredit={(!scheduled || hasDates) && !selectedSoldOut}
        creditHref={href(flow, scheduled ? selected?._id : null, true)} memberText={memberText} membershipsHref={membershipsHref} />
      {cancellationText && <p className="small muted" style={{ margin: 0 }}>{cancellationText}</p>}
      <div style={{ display: 'grid', gap: '0.5rem' }}>
        {selectedSoldOut ? (
          <a className="btn btn--block" href={withQuery(waitlistHref, { occurrence: selected!._id })}>Join Waitlist</a>
        ) : scheduled && !hasDates ? (
          <>
            <a className="btn btn--block" href={waitlistHref}>Join Waitlist</a>
            <a className="btn btn--secondary btn--block" href={href('dateBookingRequest')}>Request a date</a>
          </>
        ) : (
          <a className="btn btn--block" href={href(flow, scheduled ? selected?._id : null)} data-chosen-date={scheduled ? '' : undefined}>{bookLabel}</a>
        )}
        {scheduled && hasDates && (
          <a className="btn btn--secondary btn--block" href={href('groupBookingRequest')}>Group booking request</a>
        )}
        {enquiryHref && <a className="btn btn--ghost btn--block" href={enquiryHref}>Send an enquiry</a>}
      </div>
    </div>
  );
}
