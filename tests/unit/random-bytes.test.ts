/**
 * Ids, references and tokens draw their random bytes from a pool refilled 4 KB at a time (api/shared/ids.ts):
 * each byte is handed out once, across refills, and every caller gets a buffer of its own.
 */
import { describe, expect, it } from 'vitest';
import { randomBytesPooled } from '../../api/shared/ids.ts';
import { newCheckoutId, newId, randomCode } from '../../api/checkout/ids.ts';

describe('pooled random bytes', () => {
  it('gives the length asked for, and never the same bytes twice across many refills of the pool', () => {
    const seen = new Set<string>();
    // 3,000 draws of 12 bytes: about nine refills of a 4,096-byte pool, and draws that straddle its end.
    for (let i = 0; i < 3000; i++) {
      const bytes = randomBytesPooled(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(3000);
    expect(randomBytesPooled(256)).toHaveLength(256);
    expect(randomBytesPooled(1000)).toHaveLength(1000);
  });

  it('hands each caller a copy: changing it changes no later draw', () => {
    const first = randomBytesPooled(16);
    first.fill(0);
    const next = randomBytesPooled(16);
    expect(next.equals(Buffer.alloc(16))).toBe(false);
  });

  it('makes the checkout\'s ids and references in their formats', () => {
    expect(newCheckoutId()).toMatch(/^chk_[0-9a-f]{32}$/);
    expect(newId('hld')).toMatch(/^hld_[0-9a-f]{24}$/);
    expect(randomCode(10)).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/);
    expect(new Set(Array.from({ length: 500 }, () => newId('x'))).size).toBe(500);
  });
});
