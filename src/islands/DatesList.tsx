/**
 * The course page's 'Dates' (spec 2.13 (11), 9: 5 per page). Pre-rendered from the build-time
 * occurrences; after hydration it loads the live list (spaces) from
 * GET /api/get-course-data-ids/{educatorId}/{courseId} and shares it with the booking aside.
 * Choosing an occurrence is a plain link to the course URL with ?occurrence= (a new window in the
 * embed); the chosen one (from the URL) is highlighted and its page shown.
 */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '../lib/use-store.ts';
import type { LinkContext, OccurrenceView, OfferView } from '../lib/types.ts';
import { fetchCourseOccurrences } from '../lib/api.ts';
import { courseLink, withQuery } from '../domain/links.ts';
import { COURSE_DATES_PAGE_SIZE } from '../domain/carousel.ts';
import { courseDurationLabel } from '../domain/time.ts';
import { occurrenceLengthSeconds } from '../domain/highlights.ts';
import { deliveryLine, pricingDisplay, listedOccurrences } from '../domain/listing.ts';
import { locationText } from '../domain/locations.ts';
import type { Occurrence as DomainOccurrence } from '../domain/entities.ts';
import { formatOccurrenceRange, isoDateTime } from '../lib/format.ts';
import { $liveOccurrences, $selectedOccurrenceId, initSelectedOccurrence } from '../stores/course.ts';
import { useHydrated } from '../lib/hydrated.ts';

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

function spacesLeft(o: OccurrenceView, courseSpaces: number | null): number | null {
  const value = o.available_spaces ?? o.spaces ?? courseSpaces;
  return typeof value === 'number' ? Math.max(0, value) : null;
}

export default function DatesList(props: DatesListProps) {
  const { educatorId, educatorSlug, courseId, courseSlug, courseType, keyword, courseSpaces, currency, courseOffers, hidePricing, links, initialOccurrences, waitlistHref } = props;
  // Until hydrated, render exactly the pre-rendered state (another island may already have set the stores).
  const hydrated = useHydrated();
  const liveValue = useStore($liveOccurrences);
  const selectedValue = useStore($selectedOccurrenceId);
  const live = hydrated ? liveValue : null;
  const selectedId = hydrated ? selectedValue : null;
  const [page, setPage] = useState(0);

  const occurrences = useMemo(() => {
    if (!live) return initialOccurrences;
    const now = Math.floor(Date.now() / 1000);
    const upcoming = live.filter((o) => o.end_datetime > now);
    // The API lists only listed occurrences; the same rule is applied again for safety.
    return (listedOccurrences(upcoming.map((o) => ({ visibility: 'public', ...o })) as unknown as DomainOccurrence[], now, courseOffers) as unknown as OccurrenceView[])
      .sort((a, b) => a.start_datetime - b.start_datetime);
  }, [live, initialOccurrences, courseOffers]);

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

  // Show the page holding the chosen occurrence.
  useEffect(() => {
    if (!selectedId) return;
    const index = occurrences.findIndex((o) => o._id === selectedId);
    if (index >= 0) setPage(Math.floor(index / COURSE_DATES_PAGE_SIZE));
  }, [selectedId, occurrences]);

  const pages = Math.max(1, Math.ceil(occurrences.length / COURSE_DATES_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = occurrences.slice(current * COURSE_DATES_PAGE_SIZE, (current + 1) * COURSE_DATES_PAGE_SIZE);

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
        {shown.map((o) => {
          const link = courseLink(links.context, {
            educatorSlug, courseSlug, occurrenceId: o._id, currentEducatorSlug: links.currentEducatorSlug, host: links.host, protocol: links.protocol,
          });
          const newWindow = link.newTab || links.context === 'embed';
          const selected = o._id === selectedId;
          const spaces = spacesLeft(o, courseSpaces);
          const offers = o.offers && o.offers.length ? o.offers : courseOffers;
          const price = hidePricing ? null : pricingDisplay({ type: 'price-offers', offers }, currency);
          const where = deliveryLine({ courseType, delivery: o.delivery, address: locationText(o.address), keyword });
          const duration = courseDurationLabel(occurrenceLengthSeconds(o) ?? 0);
          return (
            <li key={o._id} className="panel date-item" aria-current={selected ? 'true' : undefined}
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
        })}
      </ul>
      {pages > 1 && (
        <nav aria-label="Dates pages" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', justifyContent: 'center', marginTop: '1rem' }}>
          <button type="button" className="btn btn--secondary btn--small" disabled={current === 0} onClick={() => setPage(current - 1)}>Previous</button>
          <span className="small muted">Page {current + 1} of {pages}</span>
          <button type="button" className="btn btn--secondary btn--small" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>Next</button>
        </nav>
      )}
    </div>
  );
}
