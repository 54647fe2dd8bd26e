/**
 * Accessible colours derived from any brand colour (white-labelling, spec 1 / 9). An educator's brand
 * may be too light for text on white (yellow) or for a focus ring, and its `on_color_brand` may not
 * read on the brand. So the pages use:
 * - --link: the brand darkened until text reads at 4.5:1 (WCAG AA) on every light surface we draw
 *   text on (white cards, the page background, the brand tint of hover and end cards);
 * - --focus: the brand darkened until the focus ring reaches 3:1 against those surfaces (WCAG 1.4.11);
 * - --on-brand: the educator's text colour on the brand when it reads at 4.5:1, else black or white,
 *   whichever reads better.
 * Presentation only; the brand rules themselves are in src/domain/avatars.ts.
 */
import { hoverColour, parseHexColour } from '../domain/avatars.ts';

type Rgb = [number, number, number];

function luminance([r, g, b]: Rgb): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function ratio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG contrast ratio of two hex colours (1–21); 21 when either is not a colour. */
export function contrastRatio(a: string, b: string): number {
  const x = parseHexColour(a);
  const y = parseHexColour(b);
  return x && y ? ratio(x, y) : 21;
}

export function contrastOnWhite(hex: string): number {
  return contrastRatio(hex, '#ffffff');
}

const toHex = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** The page background and card colours of global.css that text and focus rings sit on. */
export const LIGHT_SURFACES: readonly string[] = ['#ffffff', '#f7f8fb', '#eef2f6'];

/** The colour darkened in 5% steps until it reaches `target` against every surface. */
function darkenUntil(hex: string, surfaces: readonly string[], target: number): string {
  const rgb = parseHexColour(hex);
  const backgrounds = surfaces.map(parseHexColour).filter((s): s is Rgb => !!s);
  if (!rgb) return hex;
  let current = rgb;
  for (let i = 0; i < 60 && backgrounds.some((bg) => ratio(current, bg) < target); i += 1) {
    current = current.map((v) => Math.floor(v * 0.95)) as Rgb;
  }
  return toHex(current);
}

/** Text in the brand colour: 4.5:1 on white, the page background, and the brand's own tint. */
export function readableOnWhite(hex: string): string {
  return darkenUntil(hex, [...LIGHT_SURFACES, hoverColour(hex)], 4.5);
}

/** The focus ring: the brand, darkened until it has 3:1 against every light surface and the brand tint. */
export function focusRingColour(hex: string): string {
  return darkenUntil(hex, [...LIGHT_SURFACES, hoverColour(hex)], 3);
}

/**
 * The brand as a surface (buttons) and the text on it: the educator's own text colour when it reads
 * at 4.5:1; else black or white, whichever reads; and for a mid-tone brand where neither does, white
 * on the brand darkened just enough (a 5% step or two, hardly visible).
 */
export function brandSurface(brand: string, onBrand: string): { surface: string; text: string } {
  if (!parseHexColour(brand) || !parseHexColour(onBrand)) return { surface: brand, text: onBrand };
  if (contrastRatio(brand, onBrand) >= 4.5) return { surface: brand, text: onBrand };
  const text = contrastRatio(brand, '#111111') >= contrastRatio(brand, '#ffffff') ? '#111111' : '#ffffff';
  if (contrastRatio(brand, text) >= 4.5) return { surface: brand, text };
  return { surface: darkenUntil(brand, ['#ffffff'], 4.5), text: '#ffffff' };
}

/** The CSS variables of a brand: --brand, --brand-hover, --on-brand, --link and --focus. */
export function brandVariables(brand: string, onBrand: string): Record<'--brand' | '--brand-hover' | '--on-brand' | '--link' | '--focus', string> {
  const { surface, text } = brandSurface(brand, onBrand);
  return {
    '--brand': surface,
    '--brand-hover': hoverColour(brand),
    '--on-brand': text,
    '--link': readableOnWhite(brand),
    '--focus': focusRingColour(brand),
  };
}
