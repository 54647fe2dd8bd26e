/**
 * Readable text in the brand colour: an educator's brand may be too light for text on white
 * (e.g. yellow). Links and outline buttons then use the brand darkened until it reaches WCAG AA
 * contrast (4.5:1) on white. Presentation only; the brand rules themselves are in src/domain/avatars.ts.
 */
import { parseHexColour } from '../domain/avatars.ts';

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastOnWhite(hex: string): number {
  const rgb = parseHexColour(hex);
  if (!rgb) return 21;
  return 1.05 / (luminance(rgb) + 0.05);
}

/** The brand colour, darkened in 5% steps until it reads on white (4.5:1). */
export function readableOnWhite(hex: string): string {
  const rgb = parseHexColour(hex);
  if (!rgb) return hex;
  let current = rgb;
  for (let i = 0; i < 20 && 1.05 / (luminance(current) + 0.05) < 4.5; i += 1) {
    current = current.map((v) => Math.round(v * 0.9)) as [number, number, number];
  }
  return `#${current.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
