/** The register's pure rules (src/domain/admin/registers.ts): who a booking brings, and CSV fields. */
import { describe, expect, it } from 'vitest';
import { bookingAttendees, csvField, csvLine } from '../../src/domain/admin/registers.ts';

describe('bookingAttendees', () => {
  it('lists the attending booker, then each guest, and unnamed spaces as the booker\'s guests', () => {
    const cd = { booker: { isAttending: true, formResponse: { system_first_name: 'Lee', system_last_name: 'L', system_email: 'l@x.io', diet: ['Vegan', 'No nuts'], ok: true } }, attendees: [{ formResponse: { system_first_name: 'Sam', system_last_name: 'S', system_email: 's@x.io' } }] };
    const list = bookingAttendees(cd, 3);
    expect(list.map((a) => [a.attendee, a.firstName, a.role])).toEqual([[0, 'Lee', 'booker'], [1, 'Sam', 'guest'], [2, 'Guest of', 'guest']]);
    expect(list[0]!.answers).toEqual({ diet: 'Vegan, No nuts', ok: 'Yes' });
    expect(list[2]!.lastName).toBe('Lee L');
  });

  it('leaves out a booker who does not attend', () => {
    const cd = { booker: { isAttending: false, formResponse: { system_first_name: 'Pat' } }, attendees: [{ formResponse: { system_first_name: 'Kid' } }] };
    expect(bookingAttendees(cd, 1).map((a) => a.firstName)).toEqual(['Kid']);
  });
});

describe('csv', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('+44 7700')).toBe("'+44 7700");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField(null)).toBe('');
    expect(csvLine(['a', 1, 'x\ny'])).toBe('a,1,"x\ny"\r\n');
  });
});
