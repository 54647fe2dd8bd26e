/**
 * A nanostore's value in a React island, re-rendering when it changes: React's own useSyncExternalStore
 * over the store's listen/get. The course page's islands use this instead of @nanostores/react, whose
 * key-path listening they do not need (a few hundred bytes on every course page).
 */
import { useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

export function useStore<T>(store: ReadableAtom<T>): T {
  return useSyncExternalStore(store.listen, store.get, store.get);
}
