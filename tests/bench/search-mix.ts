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
  // Words with a sort other than relevance: rare, middling ("first aid", "photography", "yoga", "driving": about
  // one course in fourteen) and common words, and a deeper page.
  { kind: 'word, newest', paths: ['query=first%20aid&sort=newest', 'query=yoga&sort=newest', 'query=driving&sort=newest', 'query=beginners&sort=newest', 'query=saffron&sort=newest', 'query=photography&sort=newest&page=5'] },
  { kind: 'word, price_asc', paths: ['query=photography&sort=price_asc', 'query=first%20aid&sort=price_asc', 'query=online&sort=price_asc', 'query=sourdough%20bread&sort=price_asc', 'query=driving&sort=price_asc&page=5'] },
  { kind: 'word, price_desc', paths: ['query=photography&sort=price_desc', 'query=yoga&sort=price_desc', 'query=course&sort=price_desc', 'query=harmony&sort=price_desc', 'query=first%20aid&sort=price_desc&page=5'] },
  // Filters with a sort, without and with words.
  { kind: 'filters, sorted', paths: ['category_slug=music&sort=newest', 'delivery=online&sort=price_asc', 'min_price=5000&max_price=10000&sort=price_desc', 'category_slug=languages&delivery=in-person&sort=price_asc'] },
  { kind: 'filters + word, sorted', paths: ['category_slug=music&query=online&sort=newest', 'delivery=in-person&query=beginners&sort=price_asc', 'max_price=5000&query=yoga&sort=price_desc', 'min_price=2000&query=photography&sort=newest', 'category_slug=pottery-ceramics&query=wheel&sort=price_desc'] },
  { kind: 'carousel', paths: ['educator_ref={educator}&size=11&context=minisite', 'category_slug=cookery-baking&size=11'] },
];

