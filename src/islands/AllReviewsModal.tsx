/**
 * The course page's 'All Reviews' modal with 'Load more' (spec 2.13, 9 "Reviews"). Opened by any
 * pre-rendered button marked [data-open-all-reviews] ('Show All (n)'); reads pages from
 * GET /api/reviews/{educatorSlug}/{courseSlug}/list (failures show an empty list).
 */
import { useEffect, useRef, useState } from 'react';
import type { LinkContext, Review } from '../lib/types.ts';
import { fetchCourseReviews } from '../lib/api.ts';
import ReviewItem from '../components/ReviewItem.tsx';

export interface AllReviewsModalProps {
  educator: { slug: string; name: string; logoUrl: string };
  courseSlug: string;
  links: LinkContext;
}

export default function AllReviewsModal({ educator, courseSlug, links }: AllReviewsModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [reviews, setReviews] = useState<Review[]>([]);
  const [token, setToken] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(false);
  const now = Math.floor(Date.now() / 1000);

  async function load(pageToken: string | null) {
    setLoading(true);
    const page = await fetchCourseReviews(educator.slug, courseSlug, pageToken);
    setReviews((current) => {
      const seen = new Set(current.map((r) => r.id));
      return [...current, ...page.reviews.filter((r) => !seen.has(r.id))];
    });
    setToken(page.nextPageToken);
    setLoaded(true);
    setLoading(false);
  }

  useEffect(() => {
    function onClick(event: MouseEvent) {
      const target = (event.target as Element | null)?.closest<HTMLElement>('[data-open-all-reviews]');
      if (!target) return;
      event.preventDefault();
      opener.current = target;
      dialog.current?.showModal();
      if (!loaded && !loading) void load(null);
    }
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  });

  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby="all-reviews-title"
      onClose={() => opener.current?.focus()}
      onClick={(event) => {
        if (event.target === dialog.current) dialog.current?.close();
      }}
    >
      <div className="modal__head">
        <h2 id="all-reviews-title">All Reviews</h2>
        <button type="button" className="btn btn--ghost" onClick={() => dialog.current?.close()} aria-label="Close">✕</button>
      </div>
      <div className="modal__body">
        {reviews.map((review) => (
          <ReviewItem key={review.id} review={review} now={now} educator={educator} links={links} headingLevel={3} currentCourseSlug={courseSlug} />
        ))}
        {loaded && reviews.length === 0 && <p className="muted" style={{ paddingTop: '1rem' }}>No reviews to show.</p>}
        {loading && <p className="muted" style={{ paddingTop: '1rem' }} role="status">Loading…</p>}
        {token && !loading && (
          <p style={{ textAlign: 'center' }}>
            <button type="button" className="btn btn--secondary" onClick={() => void load(token)}>Load more</button>
          </p>
        )}
      </div>
    </dialog>
  );
}
