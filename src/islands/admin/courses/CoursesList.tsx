/**
 * The educator's courses (/courses on the admin host): search by name, published / draft, each course's dates to
 * come and the next one, 50 a page ("Show more"). With no course yet, an empty state says what to do first.
 */
import { useEffect, useRef, useState } from 'react';
import { adminFetch } from '../api.ts';
import { adminPath } from '../../../domain/admin-nav.ts';
import { COURSE_TYPE_LABELS, type CourseTypeValue } from '../../../domain/admin/course.ts';
import { formatShortDateTime } from '../../../domain/time.ts';
import './courses.css';

interface Item { id: string; name: string; slug: string; type: string; published: boolean; image: string | null; upcomingDates: number; nextDate: number | null }
interface Page { courses: Item[]; next: string | null; total: number }

/** The pages of courses matching the filters, fetched again (after a pause while typing) when they change. */
function useCoursesPages(educatorId: string, query: string, statusFilter: string) {
  const [items, setItems] = useState<Item[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);

  const fetchPage = async (after: string | null) => {
    const ticket = ++request.current;
    setLoading(true);
    const params = new URLSearchParams();
    if (query.trim()) params.set('q', query.trim());
    if (statusFilter !== 'all') params.set('status', statusFilter);
    if (after) params.set('after', after);
    const res = await adminFetch<Page>('GET', `/educators/${encodeURIComponent(educatorId)}/courses${params.size ? `?${params}` : ''}`);
    if (ticket !== request.current) return;
    setLoading(false);
    if (!res.ok) {
      setError(res.problem.detail);
      return;
    }
    setError(null);
    setItems((current) => (after && current ? [...current, ...res.data.courses] : res.data.courses));
    setNext(res.data.next);
    setTotal(res.data.total);
  };

  useEffect(() => {
    const timer = setTimeout(() => void fetchPage(null), query ? 250 : 0);
    return () => clearTimeout(timer);
    // fetchPage reads the current filters; it changes with them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, statusFilter, educatorId]);

  return { items, next, total, error, loading, fetchPage };
}

function FilterBar({ query, setQuery, statusFilter, setStatusFilter, newCourse }: {
  query: string; setQuery: (q: string) => void; statusFilter: string; setStatusFilter: (s: string) => void; newCourse: string;
}) {
  return (
    <div className="courses-list__bar">
      <div className="admin-field">
        <label htmlFor="course-search">Search courses by name</label>
        <input id="course-search" type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} autoComplete="off" />
      </div>
      <div className="admin-field">
        <label htmlFor="course-status">Show</label>
        <select id="course-status" value={statusFilter} onChange={(e) => setStatusFilter(e.currentTarget.value)}>
          <option value="all">All courses</option>
          <option value="published">Published</option>
          <option value="draft">Drafts</option>
        </select>
      </div>
      <a className="btn courses-list__new" href={newCourse}>New course</a>
    </div>
  );
}

function FirstCourse({ newCourse }: { newCourse: string }) {
  return (
    <section className="admin-empty" aria-labelledby="courses-empty">
      <h2 id="courses-empty">Add your first course</h2>
      <p>Start with <strong>New course</strong>: give it a name, what learners pay (its offers), a description and a picture. It is saved as a draft, which only you can see; preview it, then publish it to show it on the marketplace, your own site and your embed.</p>
      <p>Once it exists, give a scheduled course its dates.</p>
      <p><a className="btn" href={newCourse}>Create your first course</a></p>
    </section>
  );
}

function CoursesTable({ items, educatorId }: { items: Item[]; educatorId: string }) {
  return (
    <table className="admin-table courses-table">
      <caption className="visually-hidden">Your courses</caption>
      <thead>
        <tr>
          <th scope="col">Course</th>
          <th scope="col">Status</th>
          <th scope="col">Dates to come</th>
          <th scope="col">Next date</th>
        </tr>
      </thead>
      <tbody>
        {items.map((c) => (
          <tr key={c.id}>
            <td>
              <a href={adminPath(`/courses/${c.id}`, educatorId)}>{c.name}</a>
              <span className="courses-table__type">{COURSE_TYPE_LABELS[c.type as CourseTypeValue] ?? c.type}</span>
            </td>
            <td><span className="course-badge" data-published={c.published ? 'true' : 'false'}>{c.published ? 'Published' : 'Draft'}</span></td>
            <td>
              {c.type === 'class' || c.type === 'blended'
                ? <a href={adminPath(`/courses/${c.id}/dates`, educatorId)} aria-label={`${c.upcomingDates} dates to come of ${c.name}: manage its dates`}>{c.upcomingDates}</a>
                : c.upcomingDates}
            </td>
            <td>{c.nextDate ? formatShortDateTime(c.nextDate) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function CoursesList({ educatorId }: { educatorId: string }) {
  const [query, setQuery] = useState('');
  const [statusFilter, setStatusFilter] = useState('all');
  const [deleted, setDeleted] = useState<string | null>(null);
  const { items, next, total, error, loading, fetchPage } = useCoursesPages(educatorId, query, statusFilter);

  useEffect(() => {
    setDeleted(new URLSearchParams(window.location.search).get('deleted'));
  }, []);

  const filtered = query.trim() !== '' || statusFilter !== 'all';
  const newCourse = adminPath('/courses/new', educatorId);

  return (
    <div className="courses-list">
      {deleted ? <p className="admin-status" role="status">“{deleted}” was deleted.</p> : null}
      <FilterBar query={query} setQuery={setQuery} statusFilter={statusFilter} setStatusFilter={setStatusFilter} newCourse={newCourse} />

      <p className="visually-hidden" role="status">{loading ? 'Loading courses…' : items ? `${total} course${total === 1 ? '' : 's'}` : ''}</p>
      {error ? <p className="admin-status" data-kind="error" role="alert">{error}</p> : null}

      {items && items.length === 0 && !filtered ? <FirstCourse newCourse={newCourse} /> : null}
      {items && items.length === 0 && filtered ? <p>No course matches{query.trim() ? ` “${query.trim()}”` : ''}.</p> : null}

      {items && items.length > 0 ? <CoursesTable items={items} educatorId={educatorId} /> : null}
      {next ? <p><button type="button" className="btn btn--secondary" disabled={loading} onClick={() => void fetchPage(next)}>Show more courses</button></p> : null}
    </div>
  );
}
