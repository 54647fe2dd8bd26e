/**
 * The course page's shared state as its islands (the dates list, the booking aside) read it: the live dates and the
 * chosen date from src/stores/course.ts.
 */
import { useStore } from '../lib/use-store.ts';
import type { OccurrenceView } from '../lib/types.ts';
import { $liveOccurrences, $selectedOccurrenceId } from '../stores/course.ts';
import { useHydrated } from '../lib/hydrated.ts';

/**
 * Both are null until hydrated, so the first render is exactly the pre-rendered state (another island may already
 * have set the stores).
 */
export function useCourseStores(): { live: OccurrenceView[] | null; selectedId: string | null } {
  const hydrated = useHydrated();
  const liveValue = useStore($liveOccurrences);
  const selectedValue = useStore($selectedOccurrenceId);
  return { live: hydrated ? liveValue : null, selectedId: hydrated ? selectedValue : null };
}
