import { describe, expect, it } from 'vitest';
import {
  REVIEWS_INLINE,
  REVIEW_BREAKDOWN_LABELS,
  breakdownRows,
  canDeleteReview,
  clampRating,
  formatRating,
  ratingPercent,
  showAllReviewsButton,
  showRatingSummary,
  showReviewedCourse,
  showReviewedOn,
  showVerifiedBadge,
} from '../../src/domain/ratings.ts';

describe('clampRating (spec 5)', () => {
  it.each([
    [-1, 0],
    [0, 0],
    [3.5, 3.5],
    [5, 5],
    [5.1, 5],
    [99, 5],
    [NaN, 0],
    [null, 0],
    [undefined, 0],
  ])('%s → %s', (input, expected) => {
    expect(clampRating(input as number)).toBe(expected);
  });
  it('takes another maximum', () => {
    expect(clampRating(9, 10)).toBe(9);
    expect(clampRating(11, 10)).toBe(10);
  });
});

describe('formatRating and ratingPercent (spec 9)', () => {
  it('formats with one decimal', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(4.26)).toBe('4.3');
  });
  it('meters are rating/5 as a percentage', () => {
    expect(ratingPercent(5)).toBe(100);
    expect(ratingPercent(2.5)).toBe(50);
    expect(ratingPercent(0)).toBe(0);
    expect(ratingPercent(6)).toBe(100);
    expect(ratingPercent(-1)).toBe(0);
  });
});

describe('review aggregate breakdown (spec 3)', () => {
  it('has the exact labels', () => {
    expect(REVIEW_BREAKDOWN_LABELS).toEqual({
      material: 'Material Covered',
      facilitator: 'Facilitator',
      organiser: 'Organiser',
      resources: 'Resources Provided',
      delivery: 'Location/Delivery',
      communication: 'Communication',
    });
  });
  it('skips null values and keeps order', () => {
    expect(breakdownRows({ communication: 4, material: 5, facilitator: null })).toEqual([
      { key: 'material', label: 'Material Covered', rating: 5, percent: 100 },
      { key: 'communication', label: 'Communication', rating: 4, percent: 80 },
    ]);
    expect(breakdownRows(null)).toEqual([]);
  });
});

describe('review display rules (spec 2.11 / 9)', () => {
  it('verified badge hidden for facebook and googlemaps only', () => {
    expect(showVerifiedBadge('facebook')).toBe(false);
    expect(showVerifiedBadge('googlemaps')).toBe(false);
    expect(showVerifiedBadge('marketplace')).toBe(true);
    expect(showVerifiedBadge('trustpilot')).toBe(true);
    expect(showVerifiedBadge(undefined)).toBe(true);
  });
  it("'Reviewed on' hidden for course reviews and the marketplace source", () => {
    expect(showReviewedOn({ entity: 'educator', sourceKey: 'googlemaps' })).toBe(true);
    expect(showReviewedOn({ entity: 'course', sourceKey: 'googlemaps' })).toBe(false);
    expect(showReviewedOn({ entity: 'educator', sourceKey: 'marketplace' })).toBe(false);
    expect(showReviewedOn({ entity: 'educator', sourceKey: 'course' })).toBe(false);
  });
  it("'Reviewed {course}' only for published courses", () => {
    expect(showReviewedCourse({ course: { name: 'X', published: true } })).toBe(true);
    expect(showReviewedCourse({ course: { name: 'X', published: false } })).toBe(false);
    expect(showReviewedCourse({ course: null })).toBe(false);
  });
  it("'Show All' from a count of 2", () => {
    expect(showAllReviewsButton(1)).toBe(false);
    expect(showAllReviewsButton(2)).toBe(true);
    expect(REVIEWS_INLINE).toBe(5);
  });
  it('rating summary only when count > 0', () => {
    expect(showRatingSummary(0)).toBe(false);
    expect(showRatingSummary(1)).toBe(true);
    expect(showRatingSummary(undefined)).toBe(false);
  });
  it('only the author may delete (spec 6)', () => {
    expect(canDeleteReview('s1', { reviewer: { id: 's1' } })).toBe(true);
    expect(canDeleteReview('s2', { reviewer: { id: 's1' } })).toBe(false);
    expect(canDeleteReview(null, { reviewer: { id: null } })).toBe(false);
  });
});
