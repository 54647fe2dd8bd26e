/**
 * Course search (/search, and the category pages /courses/{categorySlug}): query, category, delivery
 * mode and price filters → GET /api/courses/search; results as course cards with 'Load more'.
 * The first page can be pre-rendered (initial); the filters live in the URL (?q=&category=&delivery=&price=).
 */
import { useLayoutEffect, useRef, useState, type SubmitEvent } from 'react';
import type { CourseCard, LinkContext } from '../lib/types.ts';
import { searchCourses, ApiError } from '../lib/api.ts';
import CourseCardView from '../components/CourseCardView.tsx';
import {
  DELIVERIES, PRICES, filtersFromQuery, filtersQuery, mergeResults, narrowsSearch, resultsCountText, searchRequest, type SearchFilters,
} from '../domain/course-search.ts';

export interface SearchAppProps {
  categories: { slug: string; name: string }[];
  links: LinkContext;
  /** Pre-rendered first page (category pages). */
  initial?: { results: CourseCard[]; total: number; total_capped?: boolean } | null;
  /** A category page: the category is fixed and not shown as a filter. */
  fixedCategory?: string | null;
  pageSize?: number;
}

type Filters = SearchFilters;

function readFilters(fixedCategory?: string | null): Filters {
  return filtersFromQuery(window.location.search, fixedCategory);
}

function writeUrl(filters: Filters, fixedCategory?: string | null): void {
  window.history.replaceState(null, '', `${window.location.pathname}${filtersQuery(filters, fixedCategory)}`);
}

/** The results so far and `run`, which fetches a page of them (a newer search aborts the one under way). */
function useCourseSearch(initial: SearchAppProps['initial'], pageSize: number) {
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
    try {
      const body = await searchCourses(searchRequest(next, pageNumber, pageSize), controller.signal);
      setResults((current) => mergeResults(current, body.results, pageNumber));
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

  return { results, total, capped, page, loading, searched, error, run };
}

interface SearchFormProps {
  filters: Filters;
  categories: SearchAppProps['categories'];
  fixedCategory?: string | null;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  change: (key: keyof Filters, value: string, submit?: boolean) => void;
}

function SearchForm({ filters, categories, fixedCategory, onSubmit, change }: SearchFormProps) {
  return (
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
  );
}

export default function SearchApp({ categories, links, initial, fixedCategory, pageSize = 24 }: SearchAppProps) {
  const [filters, setFilters] = useState<Filters>({ q: '', category: fixedCategory ?? '', delivery: '', price: '' });
  const { results, total, capped, page, loading, searched, error, run } = useCourseSearch(initial, pageSize);

  // A layout effect: it runs in the task that commits the hydration, so a search the learner starts right after
  // hydration is not overwritten by the address's filters (passive effects run a task later).
  useLayoutEffect(() => {
    const fromUrl = readFilters(fixedCategory);
    setFilters(fromUrl);
    if (narrowsSearch(fromUrl, fixedCategory) || !initial) void run(fromUrl, 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the address's filters replace the pre-rendered defaults; later changes come from the form
  }, []);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    writeUrl(filters, fixedCategory);
    void run(filters, 1);
  }

  function change(key: keyof Filters, value: string, submit = false) {
    const next = { ...filters, [key]: value };
    setFilters(next);
    if (submit) {
      writeUrl(next, fixedCategory);
      void run(next, 1);
    }
  }

  return (
    <div className="search">
      <SearchForm filters={filters} categories={categories} fixedCategory={fixedCategory} onSubmit={onSubmit} change={change} />
      <p className="muted" role="status" aria-live="polite">
        {loading ? 'Searching…' : searched ? resultsCountText(total, capped) : ''}
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
