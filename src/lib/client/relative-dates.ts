/**
 * Keeps pre-rendered relative dates current: reviews ('Today', '3 weeks ago', spec 9 "Relative
 * age of a review") and educator responses ('Responded …', spec 9 "Relative time labels").
 * Elements carry their epoch seconds in data-review-age / data-response-age. Islands refresh their
 * own dates after hydration, so elements inside <astro-island> are left alone (no hydration mismatch).
 */
import { relativeReviewAge, relativeTimeLabel } from '../../domain/time.ts';

const now = Math.floor(Date.now() / 1000);
for (const el of document.querySelectorAll<HTMLElement>('[data-review-age]')) {
  if (el.closest('astro-island')) continue;
  const at = Number(el.dataset.reviewAge);
  if (Number.isFinite(at)) el.textContent = relativeReviewAge(now - at);
}
for (const el of document.querySelectorAll<HTMLElement>('[data-response-age]')) {
  if (el.closest('astro-island')) continue;
  const at = Number(el.dataset.responseAge);
  if (Number.isFinite(at)) el.textContent = `Responded ${relativeTimeLabel(now - at, now)}`;
}
