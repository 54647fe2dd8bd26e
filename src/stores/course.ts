/**
 * Course page state shared by its islands: the occurrence chosen through `?occurrence=` and the
 * live occurrence list (spaces) loaded by the dates list, read by the booking aside.
 */
import { atom } from 'nanostores';
import type { OccurrenceView } from '../lib/types.ts';

/** The chosen occurrence id (from the URL's ?occurrence=), or null. */
export const $selectedOccurrenceId = atom<string | null>(null);

/** Live occurrences from the API; null until loaded (the pre-rendered list is used until then). */
export const $liveOccurrences = atom<OccurrenceView[] | null>(null);

/** Reads ?occurrence= once on the client. */
export function initSelectedOccurrence(): string | null {
  if (typeof window === 'undefined') return null;
  const id = new URLSearchParams(window.location.search).get('occurrence');
  if (id && $selectedOccurrenceId.get() !== id) $selectedOccurrenceId.set(id);
  return id;
}
