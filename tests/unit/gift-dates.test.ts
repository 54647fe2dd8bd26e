/**
 * Gift voucher dates (src/domain/gifts.ts), all London dates through the time-zone module: a card's expiry at the
 * end of the London day some calendar months on, the recipient's e-mail at 09:00 London, and a send date at most a
 * calendar year ahead (in a leap year 366 days, not 365).
 */
import { describe, expect, it } from 'vitest';
import { giftExpiry, giftSendAt, londonDate, validateGiftDetails, type GiftDetails } from '../../src/domain/gifts.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const details = (sendDate: string): GiftDetails => ({
  buyerName: 'Ada', buyerEmail: 'ada@example.com', recipientName: 'Grace', recipientEmail: 'grace@example.com', message: '', sendDate,
});
const sendDateProblems = (sendDate: string, now: number) => validateGiftDetails(details(sendDate), now).filter((p) => p.key === 'payload.sendDate');

describe('gift voucher dates', () => {
  it("today is London's date: 23:30 UTC in summer is already tomorrow", () => {
    expect(londonDate(at('2026-07-14T23:30:00Z'))).toBe('2026-07-15');
    expect(londonDate(at('2026-01-14T23:30:00Z'))).toBe('2026-01-14');
  });

  it('a card lasts to the end of the London day, calendar months later (the month\'s last day when it has no such day)', () => {
    expect(iso(giftExpiry(at('2026-01-31T12:00:00Z'), 12))).toBe('2027-01-31T23:59:59Z');
    expect(iso(giftExpiry(at('2026-01-31T12:00:00Z'), 13))).toBe('2027-02-28T23:59:59Z');
    expect(iso(giftExpiry(at('2026-06-15T12:00:00Z'), 12))).toBe('2027-06-15T22:59:59Z'); // BST
  });

  it('a scheduled e-mail goes at 09:00 London on the send date; today means at once', () => {
    const now = at('2026-03-20T10:00:00Z');
    expect(giftSendAt('2026-03-20', now)).toBe(now);
    expect(iso(giftSendAt('2026-03-28', now))).toBe('2026-03-28T09:00:00Z');
    expect(iso(giftSendAt('2026-03-30', now))).toBe('2026-03-30T08:00:00Z');
  });

  it('a send date may be up to a calendar year ahead, not a day more', () => {
    const now = at('2027-06-01T12:00:00Z');
    expect(sendDateProblems('2028-06-01', now)).toEqual([]);
    expect(sendDateProblems('2028-06-02', now)[0]?.message).toBe('must be within a year');
    expect(sendDateProblems('2027-05-31', now)[0]?.message).toBe('must be today or later');
    // Across 29 February 2028 a calendar year is 366 days.
    expect(sendDateProblems('2028-03-01', at('2027-03-01T12:00:00Z'))).toEqual([]);
  });
});
