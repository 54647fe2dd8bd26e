/** The fixed mix of bench:search (tests/bench/search.ts). */
/**
 * The mix, one entry per kind, all equally frequent. `{educator}` is replaced by demo educators in turn.
 * Pages of the search page ask for 24 results; carousels for 11.
 */
export const SEARCH_MIX: Array<{ kind: string; paths: string[] }> = [
  { kind: 'common word', paths: ['query=online', 'query=beginners', 'query=course', 'query=class', 'query=workshop', 'query=london'] },
  { kind: 'rare word', paths: ['query=saffron', 'query=harmony', 'query=stillwater', 'query=codeforge', 'query=lingua%20franca'] },
  { kind: 'two words', paths: ['query=first%20aid', 'query=wheel%20throwing', 'query=sourdough%20bread', 'query=yoga%20beginners', 'query=python%20data'] },
  { kind: 'no query, relevance', paths: [''] },
  { kind: 'no query, newest', paths: ['sort=newest'] },
  { kind: 'no query, price_asc', paths: ['sort=price_asc'] },
  { kind: 'no query, price_desc', paths: ['sort=price_desc'] },
  { kind: 'category', paths: ['category_slug=music', 'category_slug=pottery-ceramics', 'category_slug=languages', 'category_slug=first-aid-safety'] },
  { kind: 'category + word', paths: ['category_slug=pottery-ceramics&query=wheel', 'category_slug=coding-tech&query=python', 'category_slug=music&query=online'] },
  { kind: 'delivery', paths: ['delivery=online', 'delivery=in-person', 'delivery=on-demand,hybrid'] },
  { kind: 'delivery + word', paths: ['delivery=online&query=yoga', 'delivery=in-person&query=beginners', 'delivery=on-demand&query=course'] },
  { kind: 'price range', paths: ['max_price=2500', 'min_price=25000', 'min_price=5000&max_price=10000', 'max_price=0'] },
  { kind: 'price + word', paths: ['max_price=5000&query=beginners', 'min_price=25000&query=course', 'max_price=2500&query=london'] },
  { kind: 'deep page', paths: ['page=40', 'query=beginners&page=20', 'category_slug=music&page=30', 'query=online&page=10&sort=relevance'] },
  { kind: 'carousel', paths: ['educator_ref={educator}&size=11&context=minisite', 'category_slug=cookery-baking&size=11'] },
];

