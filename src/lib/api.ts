/**
 * Calls from islands to the JSON API (spec 7 "Public pages"). The API base comes from the
 * build-time PUBLIC_API_ORIGIN (default '': the page's own origin).
 */
import type { CourseSearchResponse, OccurrenceView, ReviewsPage } from './types.ts';
import { apiUrl } from './api-url.ts';

export { API_ORIGIN, apiUrl } from './api-url.ts';

/** A failed call, read as spec 8 says: problem details or JSON → title/detail/status; otherwise the text. */
export class ApiError extends Error {
  constructor(
    readonly title: string,
    readonly detail: string | undefined,
    readonly status: number,
    readonly type?: string,
  ) {
    super(detail || title);
    this.name = 'ApiError';
  }
  /** Spec 8 "Public page errors": the error's detail or title. */
  get shown(): string {
    return this.detail || this.title;
  }
}

export async function readError(res: Response): Promise<ApiError> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text().catch(() => '');
  if (/json/.test(type)) {
    try {
      const body = JSON.parse(text) as { title?: string; detail?: string; status?: number; type?: string; message?: string };
      return new ApiError(body.title || body.message || res.statusText || 'Error', body.detail, body.status ?? res.status, body.type);
    } catch {
      /* fall through to text */
    }
  }
  return new ApiError(text || res.statusText || 'Something went wrong', undefined, res.status);
}

async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(apiUrl(path), { credentials: 'include', cache: 'no-store', ...init });
  if (!res.ok) throw await readError(res);
  return (await res.json()) as T;
}

function qs(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Spec 7 / 8: educator reviews. A 404 or 423, or a body without a reviews array, raises
 * "404 - Not found"; other failures raise the response text.
 */
export async function fetchEducatorReviews(educatorSlug: string, context: 'marketplace' | 'minisite', pageToken?: string | null): Promise<ReviewsPage> {
  const res = await fetch(apiUrl(`/reviews/list/${encodeURIComponent(educatorSlug)}${qs({ context, pageToken })}`), {
    credentials: 'include',
    cache: 'no-store',
  });
  if (res.status === 404 || res.status === 423) throw new Error('404 - Not found');
  if (!res.ok) throw new Error(await res.text().catch(() => res.statusText));
  const body = (await res.json()) as Partial<ReviewsPage>;
  if (!Array.isArray(body.reviews)) throw new Error('404 - Not found');
  return { reviews: body.reviews, nextPageToken: body.nextPageToken ?? null };
}

/** Spec 7 / 8: course reviews; any failure shows an empty list. */
export async function fetchCourseReviews(educatorSlug: string, courseSlug: string, pageToken?: string | null): Promise<ReviewsPage> {
  try {
    const body = await getJson<Partial<ReviewsPage>>(
      `/reviews/${encodeURIComponent(educatorSlug)}/${encodeURIComponent(courseSlug)}/list${qs({ pageToken })}`,
    );
    return { reviews: Array.isArray(body.reviews) ? body.reviews : [], nextPageToken: body.nextPageToken ?? null };
  } catch {
    return { reviews: [], nextPageToken: null };
  }
}

/** Live occurrences (spaces) of a course; already filtered to listed occurrences by the API. */
export async function fetchCourseOccurrences(educatorId: string, courseId: string): Promise<OccurrenceView[]> {
  const body = await getJson<{ occurrences?: OccurrenceView[] }>(
    `/get-course-data-ids/${encodeURIComponent(educatorId)}/${encodeURIComponent(courseId)}`,
  );
  return Array.isArray(body.occurrences) ? body.occurrences : [];
}

export interface SearchParams {
  query?: string;
  educator_ref?: string;
  category_slug?: string;
  context?: 'marketplace' | 'minisite';
  delivery?: string;
  max_price?: number | null;
  min_price?: number | null;
  page?: number;
  size?: number;
  sort?: string;
}

export async function searchCourses(params: SearchParams, signal?: AbortSignal): Promise<CourseSearchResponse> {
  const body = await getJson<Partial<CourseSearchResponse>>(
    `/courses/search${qs({ sort: 'relevance', size: 11, page: 1, ...params } as Record<string, string | number | null | undefined>)}`,
    { signal },
  );
  return { results: body.results ?? [], total: body.total ?? 0, total_capped: body.total_capped === true, page: body.page ?? 1, size: body.size ?? 11 };
}

/** Spec 3 "Enquiry payload". */
export interface EnquiryPayload {
  contact_details: { first_name: string; last_name: string; email: string; phone: string };
  details: {
    message: string;
    embedded: boolean;
    course_slug: string | null;
    course_name: string | null;
    enquiry_type: string | null;
    occurrence_ref: string | null;
  };
  type: 'message' | 'waitlist';
  educator_slug: string;
  captchaToken: string;
}

/** Spec 7: POST {api}/enquiries, credentials included; a non-OK answer becomes an ApiError. */
export async function postEnquiry(payload: EnquiryPayload): Promise<void> {
  const res = await fetch(apiUrl('/enquiries'), {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (!res.ok) throw await readError(res);
}
