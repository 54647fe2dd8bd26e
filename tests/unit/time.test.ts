import { describe, expect, it } from 'vitest';
import {
  checkoutDurationText,
  courseDurationLabel,
  formatShortDateTime,
  relativeReviewAge,
  relativeTimeLabel,
  reviewMonths,
  weekStartsOn,
} from '../../src/domain/time.ts';

describe('relativeReviewAge (spec 9 "Relative age of a review")', () => {
  it.each([
    [0, 'Today'],
    [-100, 'Today'],
    [86399, 'Today'],
    [86400, 'Yesterday'],
    [172799, 'Yesterday'],
    [172800, '2 days ago'],
    [172801, '3 days ago'], // ceil(days)
    [259200, '3 days ago'],
    [1209599, '14 days ago'],
    [1209600, '2 weeks ago'],
    [1209601, '3 weeks ago'], // ceil(weeks)
    [3110399, '6 weeks ago'],
    [3110400, '6 weeks ago'],
    [4838399, '8 weeks ago'],
    [4838400, '2 months ago'],
    [4838400 + 1209599, '2 months ago'], // remainder below half a month: rounded down
    [4838400 + 1209600, '3 months ago'], // half a month: rounded up
    [29030399, '12 months ago'],
    [29030400, '1 year ago'],
    [43545599, '1 year ago'],
    [43545600, '2 years ago'], // ceil(1.5 years)
    [58060800, '2 years ago'],
    [58060801, '3 years ago'],
  ])('%i s → %s', (age, label) => {
    expect(relativeReviewAge(age)).toBe(label);
  });

  it('reviewMonths rounds half up within the month band', () => {
    expect(reviewMonths(2419200 * 3)).toBe(3);
    expect(reviewMonths(2419200 * 3 + 1209599)).toBe(3);
    expect(reviewMonths(2419200 * 3 + 1209600)).toBe(4);
  });

});

describe('relativeTimeLabel (spec 9 "Relative time labels")', () => {
  const now = 1_700_000_000; // 2023-11-14T22:13:20Z
  it.each([
    [0, '0 seconds ago'],
    [59, '59 seconds ago'],
    [60, '1 minute ago'],
    [3599, '59 minutes ago'],
    [3600, '1 hour ago'],
    [86399, '23 hours ago'],
    [86400, '1 day ago'],
    [259199, '2 days ago'],
  ])('%i s → %s', (age, label) => {
    expect(relativeTimeLabel(age, now)).toBe(label);
  });
  it('from 3 days shows the short numeric date and time in Europe/London', () => {
    expect(relativeTimeLabel(259200, now)).toBe('11/11/2023, 22:13');
    // summer time: 2023-07-01T12:00:00Z is 13:00 in London
    expect(relativeTimeLabel(259200, 1688212800 + 259200)).toBe('01/07/2023, 13:00');
  });
  it('honours another locale', () => {
    expect(relativeTimeLabel(120, now, 'en-US')).toBe('2 minutes ago');
    expect(formatShortDateTime(now, 'en-US', 'UTC')).toBe('11/14/23, 10:13 PM');
  });
});

describe('courseDurationLabel (spec 9 "Duration label on the course page")', () => {
  it.each([
    [-60, ''],
    [0, ''],
    [1, '1 minute'],
    [60, '1 minute'],
    [120, '2 minutes'],
    [3599, '59 minutes'],
    [3600, '1 hour'],
    [3660, '1 hour 1 minute'],
    [5400, '1 hour 30 minutes'],
    [7199, '1 hour 59 minutes'],
    [7200, '2 hours'],
    [9000, '2 hours 30 minutes'],
    [25199, '6 hours 59 minutes'],
    [25200, 'Full day'],
    [97199, 'Full day'],
    [97200, 'Two days'],
    [172799, 'Two days'],
    [172800, 'Two days'],
    [172801, '3 days'],
    [1209600, '14 days'],
    [1209601, '3 weeks'],
    [3628800, '6 weeks'],
    [3628801, '2 months'],
    [2 * 2629757 + 691199, '2 months'],
    [2 * 2629757 + 691200, '3 months'],
    [12 * 2629757, '12 months'],
  ])('%i s → %j', (seconds, label) => {
    expect(courseDurationLabel(seconds)).toBe(label);
  });
});

describe('checkoutDurationText (spec 9)', () => {
  it.each([
    [0, '0 Minutes'],
    [1, '1 Minute'],
    [45, '45 Minutes'],
    [60, '1 Hour'],
    [90, '1 Hour 30 Minutes'],
    [120, '2 Hours'],
    [1440, '1 Day'],
    [1500, '1 Day 1 Hour'],
    [3000, '2 Days 2 Hours'],
    [2881, '2 Days 1 Minute'],
  ])('%i min → %s', (minutes, text) => {
    expect(checkoutDurationText(minutes)).toBe(text);
  });
});

describe('weekStartsOn (spec 2.17 / 9)', () => {
  it('follows the locale', () => {
    expect(weekStartsOn('en-GB')).toBe(1);
    expect(weekStartsOn('en-US')).toBe(0);
    expect(weekStartsOn('ar-EG')).toBe(6);
  });
  it('defaults to Monday without week information', () => {
    expect(weekStartsOn(undefined)).toBe(1);
    expect(weekStartsOn('')).toBe(1);
    expect(weekStartsOn('not a locale!!')).toBe(1);
  });
});
