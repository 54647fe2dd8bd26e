/**
 * The course search's filters (/search and the category pages): the options, the filters as the address keeps them
 * (?q=&category=&delivery=&price=), as the search API asks for them, and the results count line.
 */

/** Price filter options: [value, label, price_min, price_max] in pence. */
export const PRICES: [string, string, number | null, number | null][] = [
  ['', 'Any price', null, null],
  ['free', 'Free', null, 0],
  ['25', 'Up to £25', null, 2500],
  ['50', 'Up to £50', null, 5000],
  ['100', 'Up to £100', null, 10000],
  ['250', 'Up to £250', null, 25000],
  ['250+', '£250 and over', 25000, null],
];
export const DELIVERIES: [string, string][] = [
  ['', 'Any delivery'],
  ['in-person', 'In person'],
  ['online', 'Online (live)'],
  ['on-demand', 'On demand'],
  ['hybrid', 'Online and in person'],
  ['on-request', 'On request'],
];

export interface SearchFilters { q: string; category: string; delivery: string; price: string }

/** The filters in an address's query (`search`); a category page's own category stands for the category. */
export function filtersFromQuery(search: string, fixedCategory?: string | null): SearchFilters {
  const p = new URLSearchParams(search);
  return { q: p.get('q') ?? '', category: fixedCategory ?? p.get('category') ?? '', delivery: p.get('delivery') ?? '', price: p.get('price') ?? '' };
}

/** The query string ('' or '?…') keeping the filters that are set; a category page's own category is left out. */
export function filtersQuery(filters: SearchFilters, fixedCategory?: string | null): string {
  const p = new URLSearchParams();
  if (filters.q) p.set('q', filters.q);
  if (filters.category && !fixedCategory) p.set('category', filters.category);
  if (filters.delivery) p.set('delivery', filters.delivery);
  if (filters.price) p.set('price', filters.price);
  const qs = p.toString();
  return qs ? `?${qs}` : '';
}

/** Whether the address narrows the search beyond what a pre-rendered first page shows. */
export function narrowsSearch(filters: SearchFilters, fixedCategory?: string | null): boolean {
  return Boolean(filters.q || filters.delivery || filters.price || (!fixedCategory && filters.category));
}

/** The search API's parameters for a page of results. */
export function searchRequest(filters: SearchFilters, page: number, size: number) {
  const price = PRICES.find(([value]) => value === filters.price);
  return {
    query: filters.q.trim(),
    category_slug: filters.category || undefined,
    delivery: filters.delivery || undefined,
    min_price: price?.[2] ?? null,
    max_price: price?.[3] ?? null,
    context: 'marketplace' as const,
    page,
    size,
  };
}

/** The first page replaces the list; a later one adds the courses not listed yet. */
export function mergeResults<T extends { _id: string }>(current: ReadonlyArray<T>, next: ReadonlyArray<T>, page: number): T[] {
  return page === 1 ? [...next] : [...current, ...next.filter((r) => !current.some((c) => c._id === r._id))];
}

/** "12 courses", "1 course"; `capped` (more match than the API counted) adds a '+'. */
export function resultsCountText(total: number, capped: boolean): string {
  return `${total}${capped ? '+' : ''} ${total === 1 && !capped ? 'course' : 'courses'}`;
}
