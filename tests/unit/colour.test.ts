/**
 * Accessible colours from any brand colour (src/lib/colour.ts): text at 4.5:1 and focus rings at
 * 3:1 on every light surface, readable text on the brand, whatever the educator picked.
 */
import { describe, expect, it } from 'vitest';
import { LIGHT_SURFACES, brandVariables, contrastRatio } from '../../src/lib/colour.ts';
import { hoverColour } from '../../src/domain/avatars.ts';

const BRANDS = ['#F2C14E', '#ffeb3b', '#ffffff', '#4F46E5', '#2563eb', '#0F766E', '#000000', '#e53935', '#8bc34a'];

describe('brandVariables', () => {
  it.each(BRANDS)('%s: text 4.5:1 and focus ring 3:1 on every light surface and the brand tint', (brand) => {
    const v = brandVariables(brand, '#ffffff');
    for (const surface of [...LIGHT_SURFACES, hoverColour(brand)]) {
      expect(contrastRatio(v['--link'], surface), `link on ${surface}`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(v['--focus'], surface), `focus on ${surface}`).toBeGreaterThanOrEqual(3);
    }
    expect(contrastRatio(v['--on-brand'], v['--brand'])).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps colours that already read, and the educator’s own text colour when it reads', () => {
    expect(brandVariables('#1e3a8a', '#ffffff')).toMatchObject({ '--link': '#1e3a8a', '--focus': '#1e3a8a', '--on-brand': '#ffffff' });
    expect(brandVariables('#F2C14E', '#1B1B1B')['--on-brand']).toBe('#1B1B1B');
    // A mid-tone red reads with neither black nor white: white on a slightly darker red.
    expect(brandVariables('#e53935', '#ffffff')).toMatchObject({ '--on-brand': '#ffffff' });
    expect(brandVariables('#e53935', '#ffffff')['--brand']).not.toBe('#e53935');
    // Yellow with white text (1.6:1) gets dark text instead.
    expect(brandVariables('#F2C14E', '#ffffff')['--on-brand']).toBe('#111111');
    // The old rule (4.5:1 on white only) gave the yellow brand 4.3:1 on the page background.
    expect(contrastRatio(brandVariables('#F2C14E', '#1B1B1B')['--link'], '#f7f8fb')).toBeGreaterThanOrEqual(4.5);
  });
});
