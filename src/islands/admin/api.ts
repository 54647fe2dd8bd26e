/**
 * The admin islands' calls to /api/admin/…: same origin (the admin host serves the API), the session cookie, never
 * cached. A failure is read as problem details (spec 8): its detail for the page, and a message per field
 * (`properties`, keyed by the field's path) for the form.
 */
export interface AdminProblem {
  status: number;
  title: string;
  detail: string;
  /** Field path → message, from the problem's `properties`. */
  fields: Record<string, string>;
  /** The whole problem, for extensions (e.g. a stale revision's `changes`). */
  raw: Record<string, unknown>;
}

export type AdminResult<T> = { ok: true; data: T } | { ok: false; problem: AdminProblem };

export async function adminFetch<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<AdminResult<T>> {
  let res: Response;
  try {
    res = await fetch(`/api/admin${path}`, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: body === undefined || body instanceof FormData ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    return { ok: false, problem: { status: 0, title: 'Offline', detail: 'We could not reach the server. Check your connection and try again.', fields: {}, raw: {} } };
  }
  const text = await res.text();
  const json = parseJson(text);
  if (res.ok) return { ok: true, data: json as T };
  const raw = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const p of Array.isArray(raw.properties) ? (raw.properties as { key?: string; message?: string }[]) : []) {
    if (p.key && p.message && !fields[p.key]) fields[p.key] = p.message;
  }
  return {
    ok: false,
    problem: {
      status: res.status,
      title: String(raw.title ?? res.statusText ?? 'Error'),
      detail: String(raw.detail ?? raw.title ?? 'Something went wrong. Please try again.'),
      fields,
      raw,
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
