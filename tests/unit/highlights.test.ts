import { describe, expect, it } from 'vitest';
import {
  courseHighlights,
  deliveryHighlight,
  durationHighlight,
  travelAreaHighlight,
  travelHighlight,
} from '../../src/domain/highlights.ts';
import type { CourseLike, Occurrence } from '../../src/domain/entities.ts';

const occ = (id: string, start: number, end: number, delivery = 'in-person'): Occurrence => ({
  _id: id,
  start_datetime: start,
  end_datetime: end,
  delivery,
});

describe('duration highlight (spec 9)', () => {
  it("'Multiple Durations (see dates)' when occurrence lengths differ", () => {
    expect(durationHighlight({ type: 'class' }, [occ('a', 0, 3600), occ('b', 100, 7300)])).toBe('Multiple Durations (see dates)');
  });
  it('the common length when they agree', () => {
    expect(durationHighlight({ type: 'class' }, [occ('a', 0, 3600), occ('b', 100, 3700)])).toBe('1 hour');
  });
  it('course_duration (minutes) without occurrences', () => {
    expect(durationHighlight({ type: 'on-demand', course_duration: { duration: 90 } })).toBe('1 hour 30 minutes');
    expect(durationHighlight({ type: 'class' })).toBeNull();
  });
  it('on-request duration_pricing: one, several, none', () => {
    expect(durationHighlight({ type: 'on-request', duration_pricing: [{ _id: 'a', duration: 120 }] })).toBe('2 hours');
    expect(
      durationHighlight({ type: 'on-request', duration_pricing: [{ _id: 'b', duration: 480 }, { _id: 'a', duration: 60 }] }),
    ).toBe('From 1 hour to Full day');
    expect(durationHighlight({ type: 'on-request', duration_pricing: [] })).toBe('To be confirmed');
    expect(durationHighlight({ type: 'on-request' })).toBe('To be confirmed');
  });
});

describe('delivery highlight (spec 9)', () => {
  it.each<[CourseLike, Occurrence[], string | null]>([
    [{ type: 'class' }, [occ('a', 0, 1, 'in-person')], 'Delivered In-Person'],
    [{ type: 'class' }, [occ('a', 0, 1, 'online')], 'Delivered Online'],
    [{ type: 'class' }, [occ('a', 0, 1, 'online'), occ('b', 0, 1, 'in-person')], 'Delivered Online or In-Person'],
    [{ type: 'class' }, [occ('a', 0, 1, 'hybrid')], 'Delivered Online or In-Person'],
    [{ type: 'class', delivery: ['online'] }, [], 'Delivered Online'],
    [{ type: 'on-request', available_for_online_delivery: true, available_for_in_person_delivery: true }, [], 'Delivered Online or In-Person'],
    [{ type: 'on-request', available_for_in_person_delivery: true }, [], 'Delivered In-Person'],
    [{ type: 'on-demand' }, [], 'On-Demand course'],
    [{ type: 'on-demand', keyword: 'programme' }, [], 'On-Demand programme'],
    [{ type: 'class' }, [], null],
  ])('%j → %s', (course, occurrences, text) => {
    expect(deliveryHighlight(course, occurrences)).toBe(text);
  });
});

describe('travel highlights (spec 9)', () => {
  it('who travels', () => {
    expect(travelHighlight({ educator_travel_settings: { enabled: true }, student_travel_settings: { enabled: true } })).toBe(
      'You travel to organiser or they travel to you',
    );
    expect(travelHighlight({ educator_travel_settings: { enabled: true } })).toBe('Delivered at your location');
    expect(travelHighlight({ student_travel_settings: { enabled: true } })).toBe("Delivered at organisers' location");
    expect(travelHighlight({ educator_travel_settings: { enabled: false } })).toBeNull();
  });
  it('area from the educator travel type', () => {
    expect(travelAreaHighlight({ educator_travel_settings: { enabled: true, type: 'Internationally' } })).toBe(
      'UK & International Requests Considered',
    );
    expect(travelAreaHighlight({ educator_travel_settings: { enabled: true, type: 'UK Wide' } })).toBe('UK Wide');
    expect(travelAreaHighlight({ educator_travel_settings: { enabled: false, type: 'UK Wide' } })).toBeNull();
  });
});

describe('courseHighlights (spec 2.13 (7))', () => {
  it('lists the highlights in order and skips empty ones', () => {
    const course: CourseLike = {
      type: 'on-request',
      level: 'All',
      duration_pricing: [{ _id: 'a', duration: 60 }],
      available_for_in_person_delivery: true,
      educator_travel_settings: { enabled: true, type: 'Internationally' },
    };
    expect(courseHighlights(course)).toEqual([
      { kind: 'duration', text: '1 hour' },
      { kind: 'delivery', text: 'Delivered In-Person' },
      { kind: 'travel', text: 'Delivered at your location' },
      { kind: 'travelArea', text: 'UK & International Requests Considered' },
      { kind: 'level', text: 'All levels' },
    ]);
    expect(courseHighlights({ type: 'class', level: 'Beginner' })).toEqual([{ kind: 'level', text: 'Beginner level' }]);
  });

  it('shows the places learners travel to (spec 7 city text), with the full list as a tooltip over 3', () => {
    const course: CourseLike = { type: 'on-request', student_travel_settings: { enabled: true, locations: ['a', 'b', 'c'] }, duration_pricing: [] };
    const places = (cities: string[]) => courseHighlights(course, [], cities).filter((h) => h.kind === 'locations');
    expect(places(['Edinburgh'])).toEqual([{ kind: 'locations', text: 'Edinburgh' }]);
    expect(places(['Edinburgh', 'Glasgow'])).toEqual([{ kind: 'locations', text: 'Edinburgh or Glasgow' }]);
    expect(places(['Edinburgh', 'Glasgow', 'Aberdeen'])).toEqual([{ kind: 'locations', text: 'Edinburgh and 2 more' }]);
    expect(places(['Edinburgh', 'Glasgow', 'Aberdeen', 'Dundee'])).toEqual([
      { kind: 'locations', text: 'Edinburgh and 3 more', tooltip: 'Edinburgh, Glasgow, Aberdeen, and Dundee' },
    ]);
    // Right after the travel highlight; none when student travel is off.
    expect(courseHighlights(course, [], ['Leeds']).map((h) => h.kind)).toEqual(['duration', 'travel', 'locations']);
    expect(places([])).toEqual([]);
    expect(courseHighlights({ ...course, student_travel_settings: { enabled: false, locations: ['a'] } }, [], ['Leeds']).some((h) => h.kind === 'locations')).toBe(false);
  });
});
