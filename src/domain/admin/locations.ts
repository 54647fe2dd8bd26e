/**
 * The educator's locations as the admin edits them (docs/admin.md "Locations"; spec 3 "Location": `formatted`, a
 * multi-line address, in the checkout; `city` on the course page). Courses name them in
 * `student_travel_settings.locations` ("In-person • I will travel to {educator}"). Pure: no I/O.
 */
import { z } from '../zod.ts';
import { optionalText, text, wholeNumber } from './catalogue-input.ts';

const locationShape = {
  name: optionalText(120),
  line1: text(200),
  line2: optionalText(200),
  city: text(100),
  postcode: optionalText(20),
  lat: z.number({ error: 'must be a number' }).min(-90, 'must be at least -90').max(90, 'must be at most 90').nullable().default(null),
  lng: z.number({ error: 'must be a number' }).min(-180, 'must be at least -180').max(180, 'must be at most 180').nullable().default(null),
};

function checkGeo(l: { lat: number | null; lng: number | null }, ctx: z.RefinementCtx): void {
  if ((l.lat === null) !== (l.lng === null)) ctx.addIssue({ code: 'custom', path: [l.lat === null ? 'lat' : 'lng'], message: 'is required with the other coordinate' });
}

export const locationInputSchema = z.object(locationShape).superRefine(checkGeo);
export type LocationInput = z.output<typeof locationInputSchema>;
export const locationUpdateSchema = z.object({ revision: wholeNumber(1, Number.MAX_SAFE_INTEGER), ...locationShape }).superRefine(checkGeo);

/** The checkout's multi-line address: name, lines, city, postcode (as the demo catalogue writes it). */
export function formattedLocation(l: Pick<LocationInput, 'name' | 'line1' | 'line2' | 'city' | 'postcode'>): string {
  return [l.name, l.line1, l.line2, l.city, l.postcode].filter((v) => v && v.trim()).join('\n');
}

/** The address parts kept with it. */
export function locationAddress(l: Pick<LocationInput, 'line1' | 'line2' | 'city' | 'postcode'>): Record<string, string> {
  const out: Record<string, string> = { line1: l.line1 };
  if (l.line2) out.line2 = l.line2;
  out.city = l.city;
  if (l.postcode) out.postcode = l.postcode;
  return out;
}
