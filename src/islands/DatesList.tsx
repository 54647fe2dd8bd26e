/**
 * The course page's 'Dates' (spec 2.13 (11), 9: 5 per page). Pre-rendered from the build-time
 * occurrences; after hydration it loads the live list (spaces) from
 * GET /api/get-course-data-ids/{educatorId}/{courseId} and shares it with the booking aside.
 * Choosing an occurrence is a plain link to the course URL with ?occurrence= (a new window in the
 * embed); the chosen one (from the URL) is highlighted and its page shown.
 */
import { useEffect, useMemo, useState } from 'react';
import type { LinkContext, OccurrenceView, OfferView } from '../lib/types.ts';
import { fetchCourseOccurrences } from '../lib/api.ts';
import { courseLink, withQuery } from '../domain/links.ts';
import { datesPage, pageHolding, spacesLeft } from '../domain/course-dates.ts';
import { courseDurationLabel } from '../domain/time.ts';
import { occurrenceLengthSeconds } from '../domain/highlights.ts';
import { deliveryLine, pricingDisplay, listedOccurrences } from '../domain/listing.ts';
import { locationText } from '../domain/locations.ts';
import type { Occurrence as DomainOccurrence } from '../domain/entities.ts';
import { formatOccurrenceRange, isoDateTime } from '../lib/format.ts';
import { $liveOccurrences, initSelectedOccurrence } from '../stores/course.ts';
import { useCourseStores } from './course-stores.ts';

export interface DatesListProps {
  educatorId: string;
  educatorSlug: string;
  courseId: string;
  courseSlug: string;
  courseType: string;
  keyword: string | null;
  courseSpaces: number | null;
  currency: string;
  /** Course-level offers, used when an occurrence has none. */
  courseOffers: OfferView[];
  hidePricing: boolean;
  links: LinkContext;
  initialOccurrences: OccurrenceView[];
  /** The waitlist page for this course (shown when there are no dates). */
  waitlistHref: string;
}

/** The dates to list: the pre-rendered ones until the live list has loaded, then the live ones still to come. */
function useDates(live: OccurrenceView[] | null, initialOccurrences: OccurrenceView[], courseOffers: OfferView[]): OccurrenceView[] {
  return useMemo(() => {
    if (!live) return initialOccurrences;
    const now = Math.floor(Date.now() / 1000);
    const upcoming = live.filter((o) => o.end_datetime > now);
    // The API lists only listed occurrences; the same rule is applied again for safety.
    return (listedOccurrences(upcoming.map((o) => ({ visibility: 'public', ...o })) as unknown as DomainOccurrence[], now, courseOffers) as unknown as OccurrenceView[])
      .sort((a, b) => a.start_datetime - b.start_datetime);
  }, [live, initialOccurrences, courseOffers]);
}

/** Loads the live dates (spaces) into the store the booking aside reads too. */
function useLoadLiveDates(educatorId: string, courseId: string): void {
  useEffect(() => {
    initSelectedOccurrence();
    let cancelled = false;
    fetchCourseOccurrences(educatorId, courseId)
      .then((list) => {
        if (!cancelled) $liveOccurrences.set(list);
      })
      .catch(() => {
        /* spec 8: silent; the pre-rendered dates stay */
      });
    return () => {
      cancelled = true;
    };
  }, [educatorId, courseId]);
}

type DateItemProps = Pick<DatesListProps, 'educatorSlug' | 'courseSlug' | 'courseType' | 'keyword' | 'courseSpaces' | 'currency' | 'courseOffers' | 'hidePricing' | 'links' | 'waitlistHref'> & {
  occurrence: OccurrenceView;
  selected: boolean;
};

function DateItem({ occurrence: o, selected, educatorSlug, courseSlug, courseType, keyword, courseSpaces, currency, courseOffers, hidePricing, links, waitlistHref }: DateItemProps) {
  const link = courseLink(links.context, {
    educatorSlug, courseSlug, occurrenceId: o._id, currentEducatorSlug: links.currentEducatorSlug, host: links.host, protocol: links.protocol,
  });
  const newWindow = link.newTab || links.context === 'embed';
  const spaces = spacesLeft(o, courseSpaces);
  const offers = o.offers && o.offers.length ? o.offers : courseOffers;
  const price = hidePricing ? null : pricingDisplay({ type: 'price-offers', offers }, currency);
  const where = deliveryLine({ courseType, delivery: o.delivery, address: locationText(o.address), keyword });
  const duration = courseDurationLabel(occurrenceLengthSeconds(o) ?? 0);
  return (
    <li className="panel date-item" aria-current={selected ? 'true' : undefined}
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'center', padding: '1rem', borderColor: selected ? 'var(--brand)' : undefined, boxShadow: selected ? '0 0 0 2px var(--brand)' : undefined }}>
      <div style={{ flex: '1 1 260px' }}>
        <p style={{ margin: 0, fontWeight: 700 }}>
          <time dateTime={isoDateTime(o.start_datetime)}>{formatOccurrenceRange(o.start_datetime, o.end_datetime)}</time>
        </p>
        <p className="small muted" style={{ margin: 0 }}>
          {[duration, ...where].filter(Boolean).join(' · ')}
        </p>
        <p className="small" style={{ margin: 0 }}>
          {spaces === 0
            ? <span className="badge">Sold out</span>
            : spaces !== null && <span>{spaces} {spaces === 1 ? 'space' : 'spaces'} left</span>}
          {price && <strong style={{ marginLeft: spaces !== null ? '0.75rem' : 0 }}>{price}</strong>}
        </p>
      </div>
      {spaces === 0
        // Sold out: nothing to select (the booking box would have nothing to book); its waitlist instead.
        ? (
          <a className="btn btn--secondary btn--small" href={withQuery(waitlistHref, { occurrence: o._id })}
            aria-label={`Join Waitlist for ${formatOccurrenceRange(o.start_datetime, o.end_datetime)}`}>
            Join Waitlist
          </a>
        )
        : selected
        ? <span className="badge badge--success">Selected</span>
        : (
          <a className="btn btn--secondary btn--small" href={link.href} {...(newWindow ? { target: '_blank', rel: 'noopener' } : {})}
            aria-label={`Select ${formatOccurrenceRange(o.start_datetime, o.end_datetime)}`}>
            Select
          </a>
        )}
    </li>
  );
}

function DatesPager({ current, pages, setPage }: { current: number; pages: number; setPage: (page: number) => void }) {
  return (
    <nav aria-label="Dates pages" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', justifyContent: 'center', marginTop: '1rem' }}>
      <button type="button" className="btn btn--secondary btn--small" disabled={current === 0} onClick={() => setPage(current - 1)}>Previous</button>
      <span className="small muted">Page {current + 1} of {pages}</span>
      <button type="button" className="btn btn--secondary btn--small" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>Next</button>
    </nav>
  );
}

export default function DatesList(props: DatesListProps) {
  const { educatorId, courseId, courseOffers, initialOccurrences, waitlistHref } = props;
  const { live, selectedId } = useCourseStores();
  const [page, setPage] = useState(0);
  const occurrences = useDates(live, initialOccurrences, courseOffers);
  useLoadLiveDates(educatorId, courseId);

  // Show the page holding the chosen occurrence.
  useEffect(() => {
    if (!selectedId) return;
    const holding = pageHolding(occurrences, selectedId);
    if (holding !== null) setPage(holding);
  }, [selectedId, occurrences]);

  const { pages, current, shown } = datesPage(occurrences, page);

  if (occurrences.length === 0) {
    return (
      <div className="panel">
        <p>There are no upcoming dates at the moment.</p>
        <a className="btn btn--secondary" href={waitlistHref}>Join Waitlist</a>
      </div>
    );
  }

  return (
    <div>
      <ul className="dates" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: '0.75rem' }}>
        {shown.map((o) => <DateItem key={o._id} {...props} occurrence={o} selected={o._id === selectedId} />)}
      </ul>
      {pages > 1 && <DatesPager current={current} pages={pages} setPage={setPage} />}
    </div>
  );
}
