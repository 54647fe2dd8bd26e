/** The Registers list (/registers): the educator's dates from today on, each linking to its register. */
import { adminPath } from '../../../domain/admin-nav.ts';
import { ProblemAlert, educatorPath, useAdminData } from '../catalogue/kit.tsx';
import '../business.css';

interface DateSummary { id: string; courseId: string; courseName: string; startAt: number; endAt: number; spaces: number | null; booked: number }

export const dateTimeLabel = (s: number) => new Date(s * 1000).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });

export default function RegistersList({ educatorId }: { educatorId: string }) {
  const { data, problem } = useAdminData<{ dates: DateSummary[] }>(educatorPath(educatorId, '/registers'));
  if (problem && !data) return <ProblemAlert problem={problem} />;
  if (!data) return <p role="status">Loading dates…</p>;
  return (
    <div className="biz" data-testid="registers-list">
      <p className="cat-actions no-print">
        <a className="btn btn--secondary" href={`/api/admin${educatorPath(educatorId, '/exports/bookings.csv')}`} download>Export bookings (CSV)</a>
        <a className="btn btn--secondary" href={`/api/admin${educatorPath(educatorId, '/exports/enquiries.csv')}`} download>Export enquiries (CSV)</a>
      </p>
      {data.dates.length === 0 ? <p className="admin-empty">No dates from today on.</p> : (
        <div className="biz-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Coming dates</caption>
            <thead><tr><th scope="col">Date</th><th scope="col">Course</th><th scope="col">Booked</th></tr></thead>
            <tbody>
              {data.dates.map((d) => (
                <tr key={d.id}>
                  <td><a href={adminPath(`/registers/${encodeURIComponent(d.id)}`, educatorId)}>{dateTimeLabel(d.startAt)}</a></td>
                  <td>{d.courseName}</td>
                  <td>{d.booked}{d.spaces === null ? '' : ` of ${d.spaces}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
