/**
 * Course search (/search, and the category pages /courses/{categorySlug}): query, category, delivery
 * mode and price filters → GET /api/courses/search; results as course cards with 'Load more'.
 * The first page can be pre-rendered (initial); the filters live in the URL (?q=&category=&delivery=&price=).
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { searchCourses, ApiError } from '../lib/api.ts';
import CourseCardView from '../components/CourseCardView.tsx';

export interface SearchAppProps {
  categories: { slug: string; name: string }[];
  links: LinkContext;
  /** Pre-rendered first page (category pages). */
  initial?: { results: CourseCard[]; total: number; total_capped?: boolean } | null;
  /** A category page: the category is fixed and not shown as a filter. */
  fixedCategory?: string | null;
  pageSize?: number;
}

/** Price filter options: [value, label, price_min, price_max] in pence. */
const PRICES: [string, string, number | null, number | null][] = [
  ['', 'Any price', null, null],
  ['free', 'Free', null, 0],
  ['25', 'Up to £25', null, 2500],
  ['50', 'Up to £50', null, 5000],
  ['100', 'Up to £100', null, 10000],
  ['250', 'Up to £250', null, 25000],
  ['250+', '£250 and over', 25000, null],
];
const DELIVERIES: [string, string][] = [
  ['', 'Any delivery'],
  ['in-person', 'In person'],
  ['online', 'Online (live)'],
  ['on-demand', 'On demand'],
  ['hybrid', 'Online and in person'],
  ['on-request', 'On request'],
];

interface Filters { q: string; category: string; delivery: string; price: string }

function readFilters(fixedCategory?: string | null): Filters {
  const p = new URLSearchParams(window.location.search);
  return { q: p.get('q') ?? '', category: fixedCategory ?? p.get('category') ?? '', delivery: p.get('delivery') ?? '', price: p.get('price') ?? '' };
}

function writeUrl(filters: Filters, fixedCategory?: string | null): void {
  const p = new URLSearchParams();
  if (filters.q) p.set('q', filters.q);
  if (filters.category && !fixedCategory) p.set('category', filters.category);
  if (filters.delivery) p.set('delivery', filters.delivery);
  if (filters.price) p.set('price', filters.price);
  const qs = p.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
}

export default function SearchApp({ categories, links, initial, fixedCategory, pageSize = 24 }: SearchAppProps) {
  const [filters, setFilters] = useState<Filters>({ q: '', category: fixedCategory ?? '', delivery: '', price: '' });
  const [results, setResults] = useState<CourseCard[]>(initial?.results ?? []);
  const [total, setTotal] = useState(initial?.total ?? 0);
  // The API counts up to a cap past the page; `capped` means more courses match than `total`.
  const [capped, setCapped] = useState(Boolean(initial?.total_capped));
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [searched, setSearched] = useState(!!initial);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function run(next: Filters, pageNumber: number) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setLoading(true);
    setError(null);
    const price = PRICES.find(([value]) => value === next.price);
    try {
      const body = await searchCourses({
        query: next.q.trim(),
        category_slug: next.category || undefined,
        delivery: next.delivery || undefined,
        min_price: price?.[2] ?? null,
        max_price: price?.[3] ?? null,
        context: 'marketplace',
        page: pageNumber,
        size: pageSize,
      }, controller.signal);
      setResults((current) => (pageNumber === 1 ? body.results : [...current, ...body.results.filter((r) => !current.some((c) => c._id === r._id))]));
      setTotal(body.total);
      setCapped(Boolean(body.total_capped));
      setPage(pageNumber);
      setSearched(true);
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setError(err instanceof ApiError ? err.shown : 'Something went wrong');
    } finally {
      if (abort.current === controller) setLoading(false);
    }
  }

  useEffect(() => {
    const fromUrl = readFilters(fixedCategory);
    setFilters(fromUrl);
    const filtered = fromUrl.q || fromUrl.delivery || fromUrl.price || (!fixedCategory && fromUrl.category);
    if (filtered || !initial) void run(fromUrl, 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the address's filters replace the pre-rendered defaults; later changes come from the form
  }, []);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    writeUrl(filters, fixedCategory);
    void run(filters, 1);
  }

  function change<K extends keyof Filters>(key: K, value: Filters[K], submit = false) {
    const next = { ...filters, [key]: value };
    setFilters(next);
    if (submit) {
      writeUrl(next, fixedCategory);
      void run(next, 1);
    }
  }

  return (
    <div className="search">
      <form className="search__form panel" role="search" onSubmit={onSubmit} action={fixedCategory ? undefined : '/search'}>
        <div className="field search__query">
          <label htmlFor="search-q">Search courses</label>
          <input id="search-q" name="q" type="search" value={filters.q} placeholder="Pottery, first aid, Python…" onChange={(e) => change('q', e.target.value)} />
        </div>
        {!fixedCategory && (
          <div className="field">
            <label htmlFor="search-category">Category</label>
            <select id="search-category" name="category" value={filters.category} onChange={(e) => change('category', e.target.value, true)}>
              <option value="">All categories</option>
              {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="search-delivery">Delivery</label>
          <select id="search-delivery" name="delivery" value={filters.delivery} onChange={(e) => change('delivery', e.target.value, true)}>
            {DELIVERIES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="search-price">Price</label>
          <select id="search-price" name="price" value={filters.price} onChange={(e) => change('price', e.target.value, true)}>
            {PRICES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div className="search__submit"><button type="submit" className="btn">Search</button></div>
      </form>
      <p className="muted" role="status" aria-live="polite">
        {loading ? 'Searching…' : searched ? `${total}${capped ? '+' : ''} ${total === 1 && !capped ? 'course' : 'courses'}` : ''}
      </p>
      {error && <p className="alert alert--danger" role="alert">{error}</p>}
      {searched && !loading && results.length === 0 && !error && <p className="panel">No courses match your search. Try fewer words or other filters.</p>}
      {/* The cards' titles are h3: their list has an h2, so the outline skips no level. */}
      <h2 className="visually-hidden">Courses</h2>
      <ul className="card-grid" data-search-results style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {results.map((card, i) => (
          <li key={card._id}><CourseCardView card={card} links={links} loading={i < 8 ? 'eager' : 'lazy'} /></li>
        ))}
      </ul>
      {(results.length < total || capped) && (
        <p style={{ textAlign: 'center', marginTop: '1.5rem' }}>
          <button type="button" className="btn btn--secondary" disabled={loading} onClick={() => void run(filters, page + 1)}>Load more</button>
        </p>
      )}
    </div>
  );
}
