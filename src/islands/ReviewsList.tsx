/**
 * Educator reviews with 'Load more' (spec 2.11, 4 "Review lists", 7). The first page is pre-rendered
 * from the build-time props; 'Load more' asks the API for pages while a nextPageToken exists (the
 * first click reads page 1 again to obtain its token, then the next page).
 */
import { useEffect, useState } from 'react';
import type { LinkContext, Review } from '../lib/types.ts';
import { fetchEducatorReviews } from '../lib/api.ts';
import ReviewItem from '../components/ReviewItem.tsx';

export interface ReviewsListProps {
  educator: { slug: string; name: string; logoUrl: string };
  /** Spec 4: embed is sent as minisite. */
  listingContext: 'marketplace' | 'minisite';
  links: LinkContext;
  initialReviews: Review[];
  /** More reviews exist beyond the pre-rendered page. */
  initialHasMore: boolean;
  /** Build time, epoch seconds (replaced by the browser clock after hydration). */
  now: number;
}

export default function ReviewsList({ educator, listingContext, links, initialReviews, initialHasMore, now: buildNow }: ReviewsListProps) {
  const [reviews, setReviews] = useState(initialReviews);
  // undefined: no page fetched yet (the pre-rendered one has no token); null: no more pages.
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(buildNow);

  useEffect(() => setNow(Math.floor(Date.now() / 1000)), []);

  const hasMore = token === undefined ? initialHasMore : token !== null;

  async function loadMore() {
    if (loading) return;
    setLoading(true);
    setError(null);
    try {
      let list = reviews;
      let next = token;
      if (next === undefined) {
        const first = await fetchEducatorReviews(educator.slug, listingContext, null);
        list = first.reviews;
        next = first.nextPageToken;
      }
      if (next) {
        const page = await fetchEducatorReviews(educator.slug, listingContext, next);
        const seen = new Set(list.map((r) => r.id));
        list = [...list, ...page.reviews.filter((r) => !seen.has(r.id))];
        next = page.nextPageToken;
      }
      setReviews(list);
      setToken(next ?? null);
    } catch (err) {
      console.error(err);
      setError(err instanceof Error ? err.message : 'Something went wrong');
    } finally {
      setLoading(false);
    }
  }

  return (
    <div>
      <div className="reviews-list" aria-live="polite">
        {reviews.map((review) => (
          <ReviewItem key={review.id} review={review} now={now} educator={educator} links={links} headingLevel={3} />
        ))}
      </div>
      {error && <p className="alert alert--danger" role="alert">{error}</p>}
      {hasMore && (
        <p style={{ textAlign: 'center', marginTop: '1rem' }}>
          <button type="button" className="btn btn--secondary" onClick={loadMore} disabled={loading} aria-busy={loading}>
            Load more
          </button>
        </p>
      )}
    </div>
  );
}
