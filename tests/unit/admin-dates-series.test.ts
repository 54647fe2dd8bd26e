/**
 * The admin's repeating dates (src/domain/admin/dates.ts): London wall-clock times kept across both clock changes
 * of 2027 (Sunday 28 March: 01:00 GMT → 02:00 BST; Sunday 31 October: 02:00 BST → 01:00 GMT), the series' ends
 * (an end date, inclusive, or a number of dates) and the checks on what the admin types.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_SERIES_DATES, availableAfter, dateLabel, summariseSeries, expandWeeklySeries, fewestSpaces, londonInstant, londonWallClock, newDatesSchema, spacesProblem,
} from '../../src/domain/admin/dates.ts';
import { fieldMessages } from '../../src/domain/admin/catalogue-input.ts';

const utc = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h, min) / 1000;

describe('a weekly series across the March clock change (Sunday 28 March 2027)', () => {
  const sundays = expandWeeklySeries({ firstDate: '2027-03-21', startTime: '10:00', endTime: '11:30', weekdays: ['sunday'], count: 3 });

  it('keeps 10:00 London: 10:00 UTC before, 09:00 UTC from the change', () => {
    expect(sundays.map((d) => d.date)).toEqual(['2027-03-21', '2027-03-28', '2027-04-04']);
    expect(sundays.map((d) => d.start)).toEqual([utc(2027, 3, 21, 10), utc(2027, 3, 28, 9), utc(2027, 4, 4, 9)]);
    expect(sundays.map((d) => d.end)).toEqual([utc(2027, 3, 21, 11, 30), utc(2027, 3, 28, 10, 30), utc(2027, 4, 4, 10, 30)]);
    for (const d of sundays) expect(londonWallClock(d.start)).toEqual({ date: d.date, time: '10:00' });
  });

  it('puts the two dates either side of the change 7 days apart on the clock but 167 hours apart in time', () => {
    expect(sundays[1]!.start - sundays[0]!.start).toBe(7 * 86400 - 3600);
    expect(sundays[2]!.start - sundays[1]!.start).toBe(7 * 86400);
  });

  it('handles the day itself and the days around it (Saturday, Sunday, Monday)', () => {
    const weekend = expandWeeklySeries({ firstDate: '2027-03-27', startTime: '10:00', endTime: '11:00', weekdays: ['saturday', 'sunday', 'monday'], until: '2027-03-29' });
    expect(weekend.map((d) => [d.date, d.start])).toEqual([
      ['2027-03-27', utc(2027, 3, 27, 10)],
      ['2027-03-28', utc(2027, 3, 28, 9)],
      ['2027-03-29', utc(2027, 3, 29, 9)],
    ]);
  });

  it('reads a time the clocks skip (01:30 on 28 March) as the same time after the jump (02:30 BST)', () => {
    const [skipped] = expandWeeklySeries({ firstDate: '2027-03-28', startTime: '01:30', endTime: '03:00', weekdays: ['sunday'], count: 1 });
    expect(skipped!.start).toBe(utc(2027, 3, 28, 1, 30));
    expect(londonWallClock(skipped!.start).time).toBe('02:30');
    // 00:59 is still GMT, 02:00 already BST.
    expect(londonInstant('2027-03-28', '00:59')).toBe(utc(2027, 3, 28, 0, 59));
    expect(londonInstant('2027-03-28', '02:00')).toBe(utc(2027, 3, 28, 1));
  });
});

describe('a weekly series across the October clock change (Sunday 31 October 2027)', () => {
  it('keeps 10:00 London: 09:00 UTC before, 10:00 UTC from the change', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-10-24', startTime: '10:00', endTime: '12:00', weekdays: ['sunday'], until: '2027-11-07' });
    expect(dates.map((d) => d.date)).toEqual(['2027-10-24', '2027-10-31', '2027-11-07']);
    expect(dates.map((d) => d.start)).toEqual([utc(2027, 10, 24, 9), utc(2027, 10, 31, 10), utc(2027, 11, 7, 10)]);
    expect(dates[1]!.start - dates[0]!.start).toBe(7 * 86400 + 3600);
    for (const d of dates) expect(londonWallClock(d.start).time).toBe('10:00');
    for (const d of dates) expect(londonWallClock(d.end).time).toBe('12:00');
  });

  it('Saturday 30 and Sunday 31 October at 18:00: 17:00 UTC then 18:00 UTC', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-10-30', startTime: '18:00', endTime: '19:00', weekdays: ['saturday', 'sunday'], count: 2 });
    expect(dates.map((d) => d.start)).toEqual([utc(2027, 10, 30, 17), utc(2027, 10, 31, 18)]);
  });

  it('reads a time that happens twice (01:30 on 31 October) as its first, BST, occurrence', () => {
    expect(londonInstant('2027-10-31', '01:30')).toBe(utc(2027, 10, 31, 0, 30));
    expect(londonInstant('2027-10-31', '02:00')).toBe(utc(2027, 10, 31, 2));
  });
});

describe('the ends of a series', () => {
  it('includes the end date and stops after it', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-01-04', startTime: '09:00', endTime: '10:00', weekdays: ['monday', 'wednesday'], until: '2027-01-11' });
    expect(dates.map((d) => d.date)).toEqual(['2027-01-04', '2027-01-06', '2027-01-11']);
  });

  it('counts dates, not weeks, and skips days before the first chosen weekday', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-01-01', startTime: '09:00', endTime: '10:00', weekdays: ['tuesday', 'thursday'], count: 3 });
    expect(dates.map((d) => d.date)).toEqual(['2027-01-05', '2027-01-07', '2027-01-12']);
  });

  it('never makes more than the maximum', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-01-01', startTime: '09:00', endTime: '10:00', weekdays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], until: '2028-12-31' });
    expect(dates).toHaveLength(MAX_SERIES_DATES);
  });
});

describe('what the admin types', () => {
  const base = { kind: 'weekly', firstDate: '2027-03-21', startTime: '10:00', endTime: '11:00', weekdays: ['sunday'], count: 4, delivery: 'online' };

  it('takes a weekly series', () => {
    const parsed = newDatesSchema.parse(base);
    expect(parsed).toMatchObject({ kind: 'weekly', visibility: 'public', spaces: null, offers: [], addOns: [] });
  });

  it('names each problem beside its field', () => {
    const messages = (input: unknown) => {
      const r = newDatesSchema.safeParse(input);
      return r.success ? {} : fieldMessages(r.error);
    };
    expect(messages({ ...base, endTime: '10:00' })).toEqual({ endTime: 'must be after the start time' });
    expect(messages({ ...base, count: null })).toEqual({ until: 'choose an end date or a number of dates' });
    expect(messages({ ...base, until: '2027-04-01' })).toEqual({ count: 'choose an end date or a number of dates, not both' });
    expect(messages({ ...base, weekdays: [] })).toEqual({ weekdays: 'choose at least one day' });
    expect(messages({ ...base, firstDate: '2027-02-30' })).toEqual({ firstDate: 'must be a date (YYYY-MM-DD)' });
    expect(messages({ ...base, startTime: '24:00' })).toEqual({ startTime: 'must be a time (HH:MM)' });
    expect(messages({ ...base, delivery: 'in-person' })).toEqual({ 'address.line1': 'is required for in-person and hybrid dates' });
    expect(messages({ ...base, spaces: 0 })).toEqual({ spaces: 'must be at least 1' });
    expect(messages({ ...base, count: null, until: '2029-03-22' })).toEqual({ until: 'must be within two years of the first date' });
    expect(messages({ kind: 'single', date: '2027-03-28', startTime: '10:00', endDate: '2027-03-27', endTime: '11:00', delivery: 'online' }))
      .toEqual({ endDate: 'must not be before the start date' });
    expect(messages({ kind: 'single', date: '2027-03-28', startTime: '10:00', endTime: '11:00', delivery: 'online', offers: [{ name: '', price: 1.5 }] }))
      .toEqual({ 'offers.0.name': 'is required', 'offers.0.price': 'must be a whole number of pence' });
  });

  it('lets a single date end on a later day', () => {
    const parsed = newDatesSchema.parse({ kind: 'single', date: '2027-10-30', startTime: '22:00', endDate: '2027-10-31', endTime: '02:00', delivery: 'online' });
    expect(parsed.kind).toBe('single');
  });
});

describe('a series read back from its dates', () => {
  it('names its weekdays, London times and span, from the next date to come', () => {
    const dates = expandWeeklySeries({ firstDate: '2027-03-21', startTime: '10:00', endTime: '11:30', weekdays: ['sunday', 'tuesday'], count: 4 });
    expect(summariseSeries('ser_1', dates, utc(2027, 3, 24, 0))).toEqual({
      id: 'ser_1', count: 4, upcoming: 2, weekdays: ['tuesday', 'sunday'], startTime: '10:00', endTime: '11:30', firstDate: '2027-03-21', lastDate: '2027-03-30',
    });
    expect(dateLabel(dates[1]!.start)).toBe('Tue 23 Mar 2027, 10:00');
    expect(dateLabel(utc(2027, 3, 28, 9))).toBe('Sun 28 Mar 2027, 10:00');
  });
});

describe('spaces already taken', () => {
  it('refuses fewer spaces than are booked and held, and says how many of each', () => {
    const t = { booked: 3, held: 2, taken: 5 };
    expect(fewestSpaces(t)).toBe(5);
    expect(spacesProblem(5, t)).toBeNull();
    expect(spacesProblem(4, t)).toBe('must be at least 5: 3 booked and 2 held by learners paying now');
    expect(spacesProblem(0, { booked: 1, held: 0, taken: 1 })).toBe('must be at least 1: 1 booked');
  });

  it('trusts the checkout\'s counter when it says more are gone than the rows show', () => {
    expect(fewestSpaces({ booked: 1, held: 0, taken: 4 })).toBe(4);
  });

  it('moves what is left by as much as the capacity moved, and leaves a counter never set for the checkout to set', () => {
    expect(availableAfter({ oldCapacity: 10, oldAvailable: 6, newCapacity: 12 })).toBe(8);
    expect(availableAfter({ oldCapacity: 10, oldAvailable: 6, newCapacity: 4 })).toBe(0);
    expect(availableAfter({ oldCapacity: 10, oldAvailable: null, newCapacity: 7 })).toBeNull();
  });
});
