/**
 * One review (spec 2.11): reviewer, 'Reviewed {course}' (published courses), 'Reviewed on {source}'
 * (neither course nor marketplace), stars, verified badge (not for facebook / googlemaps), relative
 * date, message, and the educator's response with 'Responded {relative date}'.
 *
 * Render-only; used pre-rendered and inside the review islands. The delete (trash) control belongs
 * to the accounts area: `.review__actions` (data-review-id, data-reviewer-id) is its mount point.
 */
import type { LinkContext, Review } from '../lib/types.ts';
import { courseLink } from '../domain/links.ts';
import { showReviewedCourse, showReviewedOn, showVerifiedBadge } from '../domain/ratings.ts';
import { relativeReviewAge, relativeTimeLabel } from '../domain/time.ts';
import { isoDateTime } from '../lib/format.ts';
import StarRating from './StarRating.tsx';

export interface ReviewItemProps {
  review: Review;
  /** Epoch seconds the relative dates are computed from. */
  now: number;
  educator: { slug: string; name: string; logoUrl: string };
  links: LinkContext;
  headingLevel?: 3 | 4;
  /** On a course page, its own course is not repeated as 'Reviewed {course}'. */
  currentCourseSlug?: string;
}

export default function ReviewItem({ review, now, educator, links, headingLevel = 3, currentCourseSlug }: ReviewItemProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const course = showReviewedCourse(review) && review.course && review.course.slug !== currentCourseSlug
    ? courseLink(links.context, { educatorSlug: educator.slug, currentEducatorSlug: links.currentEducatorSlug, host: links.host, protocol: links.protocol, courseSlug: review.course.slug })
    : null;
  const response = review.educatorResponse;
  return (
    <article className="review" data-review-id={review.id}>
      <div className="review__head">
        <Heading className="review__name" style={{ margin: 0, fontSize: '1rem' }}>{review.reviewer.name}</Heading>
        <StarRating rating={review.rating} />
        {showVerifiedBadge(review.sourceKey) && (
          review.verified ? <span className="badge badge--success">Verified</span> : <span className="badge">Unverified</span>
        )}
        <time className="review__meta" dateTime={isoDateTime(review.createdAt)} data-review-age={review.createdAt}>
          {relativeReviewAge(now - review.createdAt)}
        </time>
        {/* Left to the accounts island (delete control): React neither hydrates nor resets its children. */}
        <span className="review__actions" data-review-id={review.id} data-reviewer-id={review.reviewer.id ?? undefined} dangerouslySetInnerHTML={{ __html: '' }} />
      </div>
      {course && review.course && (
        <p className="review__meta" style={{ margin: 0 }}>
          <a href={course.href} {...(course.newTab ? { target: '_blank', rel: 'noopener' } : {})}>Reviewed {review.course.name}</a>
        </p>
      )}
      {showReviewedOn(review) && (
        <p className="review__meta" style={{ margin: 0 }}>
          {review.externalUrl
            ? <a href={review.externalUrl} target="_blank" rel="noopener nofollow">Reviewed on {review.sourceLabel}</a>
            : <>Reviewed on {review.sourceLabel}</>}
        </p>
      )}
      {review.publicMessage && <p className="review__message">{review.publicMessage}</p>}
      {response && (
        <div className="review__response">
          <div className="review__response-head">
            <img src={educator.logoUrl} alt="" width={28} height={28} loading="lazy" />
            <strong>{educator.name}</strong>
            <time className="review__meta" dateTime={isoDateTime(response.createdAt)} data-response-age={response.createdAt}>
              Responded {relativeTimeLabel(now - response.createdAt, now)}
            </time>
          </div>
          <p className="review__message">{response.message}</p>
        </div>
      )}
    </article>
  );
}
