import { describe, expect, it } from 'vitest';
import { filtersFromQuery, filtersQuery, mergeResults, narrowsSearch, resultsCountText, searchRequest } from '../../src/domain/course-search.ts';

describe('course search filters', () => {
  it('reads the address, a category page keeping its own category', () => {
    expect(filtersFromQuery('?q=clay&category=art&price=25')).toEqual({ q: 'clay', category: 'art', delivery: '', price: '25' });
    expect(filtersFromQuery('?category=art', 'pottery').category).toBe('pottery');
  });

  it('writes only the filters set, never a category page\'s own category', () => {
    expect(filtersQuery({ q: 'clay', category: 'art', delivery: '', price: '' })).toBe('?q=clay&category=art');
    expect(filtersQuery({ q: '', category: 'pottery', delivery: '', price: '' }, 'pottery')).toBe('');
  });

  it('says whether the address narrows a pre-rendered first page', () => {
    expect(narrowsSearch({ q: '', category: 'pottery', delivery: '', price: '' }, 'pottery')).toBe(false);
    expect(narrowsSearch({ q: '', category: 'art', delivery: '', price: '' })).toBe(true);
    expect(narrowsSearch({ q: '', category: '', delivery: 'online', price: '' })).toBe(true);
  });

  it('asks the API for the price band in pence', () => {
    expect(searchRequest({ q: ' clay ', category: '', delivery: '', price: '250+' }, 2, 24)).toEqual({
      query: 'clay', category_slug: undefined, delivery: undefined, min_price: 25000, max_price: null, context: 'marketplace', page: 2, size: 24,
    });
    expect(searchRequest({ q: '', category: 'art', delivery: 'online', price: 'free' }, 1, 24)).toMatchObject({ category_slug: 'art', delivery: 'online', min_price: null, max_price: 0 });
  });

  it('replaces the list with a first page and adds only new courses from later ones', () => {
    const a = { _id: 'a' }; const b = { _id: 'b' }; const c = { _id: 'c' };
    expect(mergeResults([a, b], [c], 1)).toEqual([c]);
    expect(mergeResults([a, b], [b, c], 2)).toEqual([a, b, c]);
  });

  it('counts the results', () => {
    expect(resultsCountText(1, false)).toBe('1 course');
    expect(resultsCountText(1, true)).toBe('1+ courses');
    expect(resultsCountText(0, false)).toBe('0 courses');
  });
});
