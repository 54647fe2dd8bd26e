/**
 * The brand colours an educator picks in the admin (spec 1 white-labelling, 9 "Branding"), judged with the same
 * contrast rules the public pages draw with (src/lib/colour.ts): the text colour on the brand (`on_color_brand` on
 * `color_brand`, the buttons and the header) must read at WCAG AA for text, 4.5:1; a pair below it is refused, by
 * the form as the educator picks and by the API on save. What the pages will derive from the brand (the link and
 * focus colours, darkened until they read on white) is shown beside it.
 */
import { brandVariables, contrastRatio } from './colour.ts';
import { DEFAULT_BRAND_COLOUR, DEFAULT_ON_BRAND_COLOUR } from '../domain/avatars.ts';

/** WCAG 2.x AA for normal text. */
export const BRAND_TEXT_MIN_CONTRAST = 4.5;

export interface BrandContrast {
  /** on_color_brand against color_brand, e.g. 4.86. */
  ratio: number;
  passes: boolean;
  /** 'AAA', 'AA', 'AA large text only' or 'Fails'. */
  level: 'AAA' | 'AA' | 'AA large text only' | 'Fails';
  /** The colour links and the focus ring will use on the public pages. */
  link: string;
  focus: string;
}

export function brandContrast(brand: string | null | undefined, onBrand: string | null | undefined): BrandContrast {
  const b = brand || DEFAULT_BRAND_COLOUR;
  const o = onBrand || DEFAULT_ON_BRAND_COLOUR;
  const ratio = Math.floor(contrastRatio(b, o) * 100) / 100;
  const vars = brandVariables(b, o);
  const level = ratio >= 7 ? 'AAA' : ratio >= BRAND_TEXT_MIN_CONTRAST ? 'AA' : ratio >= 3 ? 'AA large text only' : 'Fails';
  return { ratio, passes: ratio >= BRAND_TEXT_MIN_CONTRAST, level, link: vars['--link'], focus: vars['--focus'] };
}

/** The message for a brand pair that does not read, or null. */
export function brandContrastProblem(brand: string | null | undefined, onBrand: string | null | undefined): string | null {
  const c = brandContrast(brand, onBrand);
  return c.passes ? null : `must contrast with the brand colour at ${BRAND_TEXT_MIN_CONTRAST}:1 or more for text (WCAG AA); this pair is ${c.ratio.toFixed(2)}:1`;
}
