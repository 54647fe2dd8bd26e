import { describe, expect, it } from 'vitest';
import {
  COLLECTION_PALETTE,
  DEFAULT_BRAND_COLOUR,
  INITIALS_PALETTE,
  brandColour,
  collectionGradient,
  hashString,
  hoverColour,
  initials,
  initialsColour,
  onBrandColour,
  parseHexColour,
  showPoweredBy,
} from '../../src/domain/avatars.ts';

describe('initials (spec 2.7)', () => {
  it('first letters, upper-cased', () => {
    expect(initials('ada', 'lovelace')).toBe('AL');
    expect(initials('Ada', '')).toBe('A');
    expect(initials(null, undefined)).toBe('');
    expect(initials('Émile', 'Zola')).toBe('ÉZ');
  });
});

describe('initialsColour (spec 9: 30 colours by char codes)', () => {
  it('has 30 distinct colours', () => {
    expect(INITIALS_PALETTE).toHaveLength(30);
    expect(new Set(INITIALS_PALETTE).size).toBe(30);
  });
  it('indexes by the sum of the first letters char codes mod 30', () => {
    // 'A' (65) + 'L' (76) = 141 → 141 % 30 = 21
    expect(initialsColour('Ada', 'Lovelace')).toBe(INITIALS_PALETTE[21]);
    expect(initialsColour('ada', 'lovelace')).toBe(INITIALS_PALETTE[21]);
    // 'B' (66) + 'L' (76) = 142 → 22
    expect(initialsColour('Bob', 'Lee')).toBe(INITIALS_PALETTE[22]);
    // 'A' alone = 65 → 5
    expect(initialsColour('Ada')).toBe(INITIALS_PALETTE[5]);
    expect(initialsColour('', '')).toBe(INITIALS_PALETTE[0]);
  });
});

describe('collectionGradient (spec 3 / 9: 32 colours)', () => {
  it('has 32 distinct colours', () => {
    expect(COLLECTION_PALETTE).toHaveLength(32);
    expect(new Set(COLLECTION_PALETTE).size).toBe(32);
  });
  it('is derived from hashes of name and id, deterministic and two-toned', () => {
    const g = collectionGradient('Summer', 'c1');
    expect(g.from).toBe(COLLECTION_PALETTE[hashString('Summer') % 32]);
    expect(g).toEqual(collectionGradient('Summer', 'c1'));
    expect(g.from).not.toBe(g.to);
    expect(g.css).toBe(`linear-gradient(135deg, ${g.from}, ${g.to})`);
  });
  it('FNV-1a hash', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
  });
});

describe('brand colours (spec 9)', () => {
  it('default brand and white-labelling', () => {
    expect(DEFAULT_BRAND_COLOUR).toMatch(/^#[0-9a-f]{6}$/);
    expect(brandColour(null)).toBe(DEFAULT_BRAND_COLOUR);
    expect(brandColour({ color_brand: '#FF0000', whitelabellingEnabled: false })).toBe(DEFAULT_BRAND_COLOUR);
    expect(brandColour({ color_brand: '#FF0000', whitelabellingEnabled: true })).toBe('#ff0000');
    expect(brandColour({ color_brand: 'red', whitelabellingEnabled: true })).toBe(DEFAULT_BRAND_COLOUR);
  });
  it('hover = 10% of brand mixed into white', () => {
    expect(hoverColour('#000000')).toBe('#e6e6e6'); // 255 × 0.9 = 229.5 → 230
    expect(hoverColour('#ff0000')).toBe('#ffe6e6');
    expect(hoverColour('#fff')).toBe('#ffffff');
    expect(hoverColour('#0a64c8')).toBe('#e7f0fa'); // (2295+10)/10=230.5→231, (2295+100)/10=239.5→240, (2295+200)/10=249.5→250
    expect(hoverColour('nonsense')).toBe(hoverColour(DEFAULT_BRAND_COLOUR));
  });
  it('on-brand defaults to white', () => {
    expect(onBrandColour(undefined)).toBe('#ffffff');
    expect(onBrandColour('')).toBe('#ffffff');
    expect(onBrandColour('#000000')).toBe('#000000');
  });
  it('parseHexColour', () => {
    expect(parseHexColour('#abc')).toEqual([170, 187, 204]);
    expect(parseHexColour('#A1B2C3')).toEqual([161, 178, 195]);
    expect(parseHexColour('#abcd')).toBeNull();
  });
  it('Powered by hidden in marketplace and when white-labelled (spec 2.17)', () => {
    expect(showPoweredBy('marketplace', false)).toBe(false);
    expect(showPoweredBy('minisite', false)).toBe(true);
    expect(showPoweredBy('embed', false)).toBe(true);
    expect(showPoweredBy('embed', true)).toBe(false);
  });
});

describe('initials from a full name', () => {
  it('splits on white space when no last name is given', () => {
    expect(initials('Ada King Lovelace')).toBe('AL');
    expect(initials('  Ada  ')).toBe('A');
    expect(initialsColour('Ada Lovelace')).toBe(INITIALS_PALETTE[21]);
  });
});
