/**
 * A checker for Course structured data against Google's course-info properties (required and
 * recommended), as the tests read them:
 * - Course: name, description, provider (Organization with a name), offers with a category
 *   (Free, Partially Free, Subscription, Paid) and, when a price is given, a numeric price and a
 *   currency; hasCourseInstance with at least one instance; image (recommended);
 * - CourseInstance: courseMode (Online, Onsite, Blended, or a URL), courseSchedule (duration,
 *   repeatFrequency, repeatCount) or courseWorkload (an ISO 8601 duration), and a location
 *   (a VirtualLocation with a URL, or a Place with a name and a postal address in GB).
 * Returns the list of problems found ([] when valid).
 */
const CATEGORIES = new Set(['Free', 'Partially Free', 'Subscription', 'Paid']);
const MODES = new Set(['Online', 'Onsite', 'Blended']);
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const FREQUENCIES = new Set(['Daily', 'Weekly', 'Monthly', 'Yearly']);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function text(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

export function courseRichResultProblems(data: unknown, options: { requireImage?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (!isObject(data)) return ['not an object'];
  if (data['@type'] !== 'Course') problems.push(`@type is ${String(data['@type'])}`);
  if (!text(data.name)) problems.push('name missing');
  if (!text(data.description)) problems.push('description missing');
  if (options.requireImage !== false && list(data.image).length === 0) problems.push('image missing (recommended)');

  const provider = data.provider;
  if (!isObject(provider) || provider['@type'] !== 'Organization' || !text(provider.name)) problems.push('provider (Organization with a name) missing');

  const offers = list(data.offers);
  if (offers.length === 0) problems.push('offers missing');
  for (const offer of offers) {
    if (!isObject(offer)) {
      problems.push('offer is not an object');
      continue;
    }
    if (!CATEGORIES.has(String(offer.category))) problems.push(`offer category ${String(offer.category)}`);
    if (offer.price !== undefined) {
      if (!/^\d+(\.\d+)?$/.test(String(offer.price))) problems.push(`offer price ${String(offer.price)} is not a number`);
      if (!text(offer.priceCurrency)) problems.push('offer priceCurrency missing');
    }
  }

  const instances = list(data.hasCourseInstance);
  if (instances.length === 0) problems.push('hasCourseInstance missing');
  instances.forEach((instance, i) => {
    const at = `hasCourseInstance[${i}]`;
    if (!isObject(instance) || instance['@type'] !== 'CourseInstance') {
      problems.push(`${at} is not a CourseInstance`);
      return;
    }
    const mode = String(instance.courseMode);
    if (!MODES.has(mode) && !/^https?:\/\//.test(mode)) problems.push(`${at}.courseMode ${mode}`);
    const schedule = instance.courseSchedule;
    const workload = instance.courseWorkload;
    if (schedule === undefined && workload === undefined) problems.push(`${at} has neither courseSchedule nor courseWorkload`);
    if (workload !== undefined && !ISO_DURATION.test(String(workload))) problems.push(`${at}.courseWorkload ${String(workload)} is not ISO 8601`);
    if (schedule !== undefined) {
      if (!isObject(schedule) || !ISO_DURATION.test(String(schedule.duration)) || !FREQUENCIES.has(String(schedule.repeatFrequency)) || typeof schedule.repeatCount !== 'number') {
        problems.push(`${at}.courseSchedule needs duration, repeatFrequency and repeatCount`);
      }
    }
    const location = instance.location;
    if (!isObject(location)) problems.push(`${at}.location missing`);
    else if (location['@type'] === 'VirtualLocation') {
      if (!text(location.url)) problems.push(`${at}.location VirtualLocation without url`);
    } else if (location['@type'] === 'Place') {
      const address = location.address;
      if (!text(location.name)) problems.push(`${at}.location Place without name`);
      if (!isObject(address) || address.addressCountry !== 'GB') problems.push(`${at}.location address without country GB`);
    } else problems.push(`${at}.location ${String(location['@type'])}`);
    for (const key of ['startDate', 'endDate'] as const) {
      if (instance[key] !== undefined && Number.isNaN(Date.parse(String(instance[key])))) problems.push(`${at}.${key} is not a date`);
    }
  });

  const rating = data.aggregateRating;
  if (rating !== undefined) {
    if (!isObject(rating) || Number.isNaN(Number(rating.ratingValue)) || !(Number(rating.reviewCount) > 0)) problems.push('aggregateRating needs ratingValue and reviewCount');
  }
  return problems;
}

/** The JSON-LD blocks of a page, parsed. */
export function jsonLdBlocks(html: string): Json[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Json);
}
