/**
 * The register of a date (/registers/{occurrenceId}): its attendees with their form answers, attended / no-show
 * per attendee (an attended learner's reviews of the course become verified), printable and as CSV.
 */
import { useState } from 'react';
import { adminFetch } from '../api.ts';
import { Notice, ProblemAlert, educatorPath, useAdminData, useSave } from '../catalogue/kit.tsx';
import { dateTimeLabel } from './RegistersList.tsx';
import '../business.css';

interface Attendee {
  bookingId: string; bookingStatus: string; paymentState: string; attendee: number; firstName: string; lastName: string; email: string;
  role: 'booker' | 'guest'; answers: Record<string, string>; attendance: 'attended' | 'no-show' | null;
}
interface Register { date: { id: string; courseName: string; startAt: number; endAt: number; spaces: number | null }; attendees: Attendee[] }

export default function RegisterScreen({ educatorId, occurrenceId }: { educatorId: string; occurrenceId: string }) {
  const path = educatorPath(educatorId, `/registers/${encodeURIComponent(occurrenceId)}`);
  const { data, problem, reload } = useAdminData<Register>(path);
  const save = useSave();
  const [notice, setNotice] = useState<string | null>(null);

  async function mark(a: Attendee, status: Attendee['attendance']) {
    const res = await adminFetch<{ reviewsVerified: number }>('PUT', `${path}/attendance`, { bookingId: a.bookingId, attendee: a.attendee, status });
    if (!res.ok) return void (await save.run('PUT', `${path}/attendance`, { bookingId: a.bookingId, attendee: a.attendee, status }));
    const who = `${a.firstName} ${a.lastName}`.trim();
    setNotice(status === null ? `Mark cleared for ${who}.` : `${who} marked ${status === 'attended' ? 'attended' : 'no-show'}.${res.data.reviewsVerified ? ' Their review is now verified.' : ''}`);
    await reload();
  }

  if (problem && !data) return <ProblemAlert problem={problem} />;
  if (!data) return <p role="status">Loading the register…</p>;
  const keys = [...new Set(data.attendees.flatMap((a) => Object.keys(a.answers)))];
  const here = data.attendees.filter((a) => a.attendance === 'attended').length;
  return (
    <div className="biz" data-testid="register-screen">
      <h2>{data.date.courseName}, {dateTimeLabel(data.date.startAt)}</h2>
      <p>{data.attendees.length} attending · {here} checked in</p>
      <p className="cat-actions no-print">
        <button type="button" className="btn btn--secondary" onClick={() => window.print()}>Print</button>
        <a className="btn btn--secondary" href={`/api/admin${path}/attendees.csv`} download>Download CSV</a>
      </p>
      <Notice text={notice} />
      <ProblemAlert problem={save.problem} />
      {data.attendees.length === 0 ? <p className="admin-empty">Nobody has booked this date yet.</p> : (
        <div className="biz-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Attendees</caption>
            <thead>
              <tr>
                <th scope="col">Name</th><th scope="col">Email</th>
                {keys.map((k) => <th scope="col" key={k}>{k}</th>)}
                <th scope="col">Attendance</th>
              </tr>
            </thead>
            <tbody>
              {data.attendees.map((a) => {
                const who = `${a.firstName} ${a.lastName}`.trim();
                return (
                  <tr key={`${a.bookingId}:${a.attendee}`}>
                    <th scope="row">{who}{a.role === 'guest' ? ' (guest)' : ''}</th>
                    <td>{a.email}</td>
                    {keys.map((k) => <td key={k}>{a.answers[k] ?? ''}</td>)}
                    <td>
                      <span className="print-only">{a.attendance ?? ''}</span>
                      <div className="biz-status no-print" role="group" aria-label={`Attendance of ${who}`}>
                        <button type="button" className={a.attendance === 'attended' ? 'btn btn--small' : 'btn btn--secondary btn--small'} aria-pressed={a.attendance === 'attended'}
                          onClick={() => void mark(a, a.attendance === 'attended' ? null : 'attended')}>Attended</button>
                        <button type="button" className={a.attendance === 'no-show' ? 'btn btn--small' : 'btn btn--secondary btn--small'} aria-pressed={a.attendance === 'no-show'}
                          onClick={() => void mark(a, a.attendance === 'no-show' ? null : 'no-show')}>No-show</button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
