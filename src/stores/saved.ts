/**
 * Saved courses (spec 3 "Saved status", 4 "Saved course", 2.12): course id → saved.
 *
 * - The server's answer (GET /student/me/saved-courses/by-course-id, only when signed in) fills $serverSaved.
 * - A click sets $localSaved, which overrides the server value (spec 4) and is sent to the API
 *   (AddCourseToSavedCourses / RemoveCourseFromSavedCourses).
 * - Saving while signed out remembers the course (localStorage) and logs in; once authenticated,
 *   `flushPendingSave()` saves it.
 */
import { atom } from 'nanostores';
import { $identity, apiFetch, loadIdentity } from './identity.ts';

export const $serverSaved = atom<Record<string, boolean>>({});
export const $localSaved = atom<Record<string, boolean>>({});

/**
 * What the hearts show: the local choice, else the server's value, else not saved. Kept up to date by hand
 * rather than with nanostores' computed(), which would add its lifecycle code to every page with a heart.
 */
export const $saved = atom<Record<string, boolean>>({});
const mergeSaved = () => $saved.set({ ...$serverSaved.get(), ...$localSaved.get() });
$serverSaved.listen(mergeSaved);
$localSaved.listen(mergeSaved);

export const PENDING_SAVE_KEY = 'marketplace:pending-save';
/** A pending save older than this (seconds) is forgotten. */
const PENDING_TTL = 3600;

const requested = new Set<string>();

/** Asks the server about these courses (once each), only when signed in. */
export async function loadSavedStatus(courseIds: string[]): Promise<void> {
  const identity = await loadIdentity();
  if (!identity.authenticated) return;
  const ids = courseIds.filter((id) => id && !requested.has(id));
  if (ids.length === 0) return;
  ids.forEach((id) => requested.add(id));
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    try {
      const res = await apiFetch(`/student/me/saved-courses/by-course-id?courseIds=${chunk.map(encodeURIComponent).join(',')}`);
      if (!res.ok) continue;
      const status = (await res.json()) as Record<string, boolean>;
      $serverSaved.set({ ...$serverSaved.get(), ...status });
    } catch {
      chunk.forEach((id) => requested.delete(id));
    }
  }
}

/** Saves or unsaves; the local state shows at once and stays even if the server is slow. */
export async function setSaved(courseId: string, saved: boolean): Promise<boolean> {
  const before = $saved.get()[courseId] ?? false;
  $localSaved.set({ ...$localSaved.get(), [courseId]: saved });
  try {
    const res = saved
      ? await apiFetch('/student/me/saved-courses', { method: 'POST', body: JSON.stringify({ courseId }) })
      : await apiFetch(`/student/me/saved-courses/${encodeURIComponent(courseId)}`, { method: 'DELETE' });
    if (!res.ok) throw new Error(String(res.status));
    return true;
  } catch {
    $localSaved.set({ ...$localSaved.get(), [courseId]: before });
    return false;
  }
}

export function rememberPendingSave(courseId: string): void {
  try {
    localStorage.setItem(PENDING_SAVE_KEY, JSON.stringify({ courseId, at: Math.floor(Date.now() / 1000) }));
  } catch {
    /* storage refused: the learner saves again after login */
  }
}

/** Spec 2.12: "After the user authenticates, the course is saved." */
export async function flushPendingSave(): Promise<string | null> {
  let pending: { courseId?: string; at?: number } | null;
  try {
    pending = JSON.parse(localStorage.getItem(PENDING_SAVE_KEY) ?? 'null');
  } catch {
    pending = null;
  }
  if (!pending?.courseId) return null;
  const identity = $identity.get().ready ? $identity.get() : await loadIdentity();
  if (!identity.authenticated) return null;
  localStorage.removeItem(PENDING_SAVE_KEY);
  if (typeof pending.at !== 'number' || Math.floor(Date.now() / 1000) - pending.at > PENDING_TTL) return null;
  return (await setSaved(pending.courseId, true)) ? pending.courseId : null;
}
