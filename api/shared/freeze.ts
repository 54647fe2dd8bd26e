/**
 * Deep freezing, for values a process keeps in memory and hands to every request (the checkout's catalogues and its
 * copies of checkouts): a caller that changed one would change it for every later request, so a change throws.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
