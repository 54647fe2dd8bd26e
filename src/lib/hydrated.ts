/**
 * False during the server render and the hydration render, true afterwards. Islands that read
 * browser-only state (the URL, shared stores set by another island) use it so their first render
 * matches the pre-rendered HTML (no hydration mismatch).
 */
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
