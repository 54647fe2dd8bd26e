/**
 * Star rating with optional value and count (spec 2.6, 2.11, 2.12, 2.13). Render-only: used in
 * static markup and inside islands alike.
 */
import { clampRating, formatRating, ratingPercent, RATING_MAX } from '../domain/ratings.ts';

export interface StarRatingProps {
  rating: number;
  count?: number | null;
  /** Show the numeric rating to 1 decimal next to the stars. */
  showValue?: boolean;
  className?: string;
}

export default function StarRating({ rating, count, showValue = false, className }: StarRatingProps) {
  const value = clampRating(rating);
  const label = `Rated ${formatRating(value)} out of ${RATING_MAX}${typeof count === 'number' ? ` from ${count} ${count === 1 ? 'review' : 'reviews'}` : ''}`;
  return (
    <span className={`stars${className ? ` ${className}` : ''}`} role="img" aria-label={label}>
      <span className="stars__icons" aria-hidden="true">
        <span className="stars__fill" style={{ width: `${ratingPercent(value)}%` }} />
      </span>
      {showValue && <span className="stars__value" aria-hidden="true">{formatRating(value)}</span>}
      {typeof count === 'number' && <span aria-hidden="true">({count})</span>}
    </span>
  );
}
