import { describe, expect, it } from 'vitest';
import { formatTimeOfDay, openingHoursRows } from '../../src/domain/workingHours.ts';

describe('openingHoursRows (spec 2.8)', () => {
  it('monday to sunday with Closed / Open 24 hours / ranges', () => {
    const rows = openingHoursRows({
      monday: [{ from: 9 * 3600, until: 17 * 3600 + 30 * 60 }],
      tuesday: [],
      wednesday: null,
      friday: [
        { from: 18 * 3600, until: 21 * 3600 },
        { from: 8 * 3600 + 5 * 60, until: 12 * 3600 },
      ],
    });
    expect(rows.map((row) => row.label)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(rows.map((row) => row.text)).toEqual([
      '09:00 → 17:30',
      'Open 24 hours',
      'Closed',
      'Closed',
      '08:05 → 12:00, 18:00 → 21:00',
      'Closed',
      'Closed',
    ]);
    expect(rows[4].ranges).toEqual(['08:05 → 12:00', '18:00 → 21:00']);
  });
  it('no working hours at all: closed every day', () => {
    expect(openingHoursRows(null).every((row) => row.text === 'Closed')).toBe(true);
  });
  it('formats seconds from midnight', () => {
    expect(formatTimeOfDay(0)).toBe('00:00');
    expect(formatTimeOfDay(59)).toBe('00:00');
    expect(formatTimeOfDay(3599)).toBe('00:59');
    expect(formatTimeOfDay(86340)).toBe('23:59');
    expect(formatTimeOfDay(86400)).toBe('24:00');
  });
});
