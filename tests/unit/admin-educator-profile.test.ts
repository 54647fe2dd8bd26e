import { describe, expect, it } from 'vitest';
import {
  EDUCATOR_SLUG_FORMAT_MESSAGE, educatorSlugProblem, isReservedEducatorSlug, newEducatorDefaults, normaliseHexColour, parseTimeOfDay,
  sortedWorkingHours, suggestEducatorSlug, workingHoursProblems,
} from '../../src/domain/admin/educator-profile.ts';
import { brandContrast, brandContrastProblem } from '../../src/lib/admin-branding.ts';
import { RESERVED_TOP_LEVEL } from '../../src/domain/routes.ts';
import { isSafeSlug } from '../../src/domain/slugs.ts';

describe('educator slugs', () => {
  it('takes lower-case letters, digits and hyphens, 3 to 63 characters, starting and ending with a letter or digit', () => {
    expect(educatorSlugProblem('abc')).toBeNull();
    expect(educatorSlugProblem('a1-b2--c3')).toBeNull();
    expect(educatorSlugProblem(`a${'b'.repeat(62)}`)).toBeNull();
    expect(educatorSlugProblem('ab')).toBe('must be at least 3 characters');
    expect(educatorSlugProblem(`a${'b'.repeat(63)}`)).toBe('must be at most 63 characters');
    for (const bad of ['a_b', 'Abc', '-ab', 'ab-', 'a b', 'a.b', 'ab/', 'café']) expect(educatorSlugProblem(bad), bad).toBe(EDUCATOR_SLUG_FORMAT_MESSAGE);
  });

  it('refuses every reserved word of the public routes and our own host names', () => {
    for (const word of RESERVED_TOP_LEVEL) if (word.length >= 3 && /^[a-z0-9-]+$/.test(word)) expect(educatorSlugProblem(word), word).toBe('is reserved; choose another');
    for (const word of ['enquiry', 'www', 'admin', 'api']) expect(isReservedEducatorSlug(word)).toBe(true);
    expect(isReservedEducatorSlug('clay-studio')).toBe(false);
  });

  it('suggests a slug from a name that passes the rule and the database\'s', () => {
    expect(suggestEducatorSlug('Clay & Co. Studio')).toBe('clay-and-co-studio');
    expect(suggestEducatorSlug('  Crème Brûlée School!! ')).toBe('creme-brulee-school');
    const long = suggestEducatorSlug('x'.repeat(80) + ' y');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(educatorSlugProblem(long)).toBeNull();
    expect(isSafeSlug(suggestEducatorSlug('A — B'))).toBe(true);
  });
});

describe('opening hours', () => {
  it('reads HH:MM from 00:00 to 24:00', () => {
    expect(parseTimeOfDay('09:30')).toBe(34_200);
    expect(parseTimeOfDay('00:00')).toBe(0);
    expect(parseTimeOfDay('24:00')).toBe(86_400);
    expect(parseTimeOfDay('24:01')).toBeNull();
    expect(parseTimeOfDay('9:30')).toBeNull();
    expect(parseTimeOfDay('12:60')).toBeNull();
  });

  it('takes closed, open 24 hours and ranges that start before they end and do not overlap', () => {
    expect(workingHoursProblems({ monday: null, tuesday: [], wednesday: [{ from: 0, until: 86_400 }], thursday: [{ from: 32_400, until: 43_200 }, { from: 43_200, until: 61_200 }] })).toEqual([]);
    expect(workingHoursProblems({ monday: [{ from: 36_000, until: 36_000 }] })).toEqual([{ key: 'working_hours.monday.0.until', message: 'must be after the opening time' }]);
    expect(workingHoursProblems({ monday: [{ from: 86_400, until: 86_400 }] })).toEqual([{ key: 'working_hours.monday.0.from', message: 'must be a time of day from 00:00 to 23:59' }]);
    expect(workingHoursProblems({ monday: [{ from: 0, until: 86_460 }] })).toEqual([{ key: 'working_hours.monday.0.until', message: 'must be a time of day up to 24:00' }]);
    expect(workingHoursProblems({ monday: [{ from: 30, until: 3600 }] })).toEqual([{ key: 'working_hours.monday.0.from', message: 'must be a time of day from 00:00 to 23:59' }]);
    expect(workingHoursProblems({ friday: [{ from: 48_000, until: 60_000 }, { from: 36_000, until: 50_400 }] })).toEqual([
      { key: 'working_hours.friday.0.from', message: 'overlaps another opening time of the day' },
    ]);
    const seven = Array.from({ length: 7 }, (_, i) => ({ from: i * 3600, until: i * 3600 + 1800 }));
    expect(workingHoursProblems({ monday: seven })).toEqual([{ key: 'working_hours.monday', message: 'must have at most 6 opening times' }]);
  });

  it('stores every day, ranges sorted by opening time', () => {
    expect(sortedWorkingHours({ monday: [{ from: 50_400, until: 61_200 }, { from: 32_400, until: 43_200 }], tuesday: [] })).toEqual({
      monday: [{ from: 32_400, until: 43_200 }, { from: 50_400, until: 61_200 }], tuesday: [], wednesday: null, thursday: null, friday: null, saturday: null, sunday: null,
    });
  });
});

describe('brand colours', () => {
  it('normalises hex colours', () => {
    expect(normaliseHexColour('#ABC')).toBe('#aabbcc');
    expect(normaliseHexColour(' #1D4ED8 ')).toBe('#1d4ed8');
    expect(normaliseHexColour('blue')).toBeNull();
    expect(normaliseHexColour('#12345')).toBeNull();
  });

  it('passes a text colour at 4.5:1 on the brand and refuses one below', () => {
    expect(brandContrast('#767676', '#ffffff')).toMatchObject({ ratio: 4.54, passes: true, level: 'AA' });
    expect(brandContrast('#777777', '#ffffff')).toMatchObject({ ratio: 4.47, passes: false, level: 'AA large text only' });
    expect(brandContrast('#000000', '#ffffff')).toMatchObject({ ratio: 21, level: 'AAA' });
    expect(brandContrast('#ffff00', '#ffffff')).toMatchObject({ passes: false, level: 'Fails' });
    expect(brandContrastProblem('#777777', '#ffffff')).toBe('must contrast with the brand colour at 4.5:1 or more for text (WCAG AA); this pair is 4.47:1');
    expect(brandContrastProblem('#1d4ed8', null)).toBeNull();
    // The pages' link colour reads on white even for a light brand.
    expect(brandContrast('#f2c14e', '#1c2333').link).not.toBe('#f2c14e');
  });
});

describe('a new educator', () => {
  it('starts claimed, contactable, closed every day, VAT off with the "Tax" label and white text on the brand', () => {
    expect(newEducatorDefaults()).toMatchObject({
      claimed: true, can_be_contacted: true, working_hours: {}, whitelabelling_enabled: false, on_color_brand: '#ffffff',
      vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: 'Tax' },
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    });
  });
});
