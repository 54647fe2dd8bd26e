/**
 * The Dates screen of one course (/courses/{courseId}/dates): its dates and series, and a form to add a single date,
 * a weekly series (previewed date by date, in London time, before it is saved) or a session of a date; to edit one
 * date or a whole series; and to remove them. Times are London wall-clock times (src/domain/admin/dates.ts); the
 * server refuses what would break bookings (spaces below booked + held, removing or moving a booked date) with a
 * reason shown beside the field or in the banner.
 *
 * The state and calls are useDatesEditor's, the drafts and bodies src/domain/admin/date-drafts.ts's; the form is
 * DateForm, the lists DateLists.
 */
import PublishStatus from '../PublishStatus.tsx';
import { adminPath } from '../../../domain/admin-nav.ts';
import { Notice, ProblemAlert } from '../catalogue/kit.tsx';
import { useDatesEditor } from './useDatesEditor.ts';
import DateForm from './DateForm.tsx';
import { PastDates, SeriesList, UpcomingDates } from './DateLists.tsx';

export default function DatesEditor({ educatorId, courseId }: { educatorId: string; courseId: string }) {
  const { data, loadProblem, reload, save, editor, mode, preview, open, close, submit, removeDate, removeSeries } = useDatesEditor(educatorId, courseId);
  const { draft, confirming, setConfirming } = editor;

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading dates…</p>;
  const { course } = data;
  const upcoming = data.dates.filter((d) => !d.started);

  return (
    <div className="dates-editor" data-testid="dates-editor">
      <p><a href={adminPath(`/courses/${course.id}`, educatorId)}>← {course.name}</a></p>
      <h2>{course.name}</h2>
      {!course.hasDates ? (
        <p className="admin-empty">{course.name} is {course.type === 'on-demand' ? 'an on-demand' : 'an on-request'} course: learners book it without a date.</p>
      ) : (
        <>
          <p className="cat-muted">
            Times are London time. {course.spaces === null ? 'The course has no spaces of its own: give each date its spaces.' : `Dates without their own spaces have the course's ${course.spaces}.`}
          </p>
          <Notice text={editor.notice} />
          <ProblemAlert problem={mode ? null : save.problem} onReload={() => void reload()} />
          <PublishStatus educatorId={educatorId} courseId={course.id} savedAt={save.savedAt} />
          {!mode && <p><button type="button" className="btn" onClick={() => open({ kind: 'new' })}>Add dates</button></p>}
          {mode && draft && (
            <DateForm
              mode={mode} draft={draft} set={editor.set} errors={save.errors} course={course} preview={preview}
              parents={data.dates.filter((d) => !d.parentRef && !d.started)}
              busy={save.busy} problem={save.problem}
              onSubmit={() => void submit()} onCancel={close} onReload={() => void reload().then(close)}
            />
          )}
          <UpcomingDates upcoming={upcoming} open={open} removeDate={removeDate} confirming={confirming} setConfirming={setConfirming} />
          <SeriesList series={data.series} dates={data.dates} open={open} removeSeries={removeSeries} confirming={confirming} setConfirming={setConfirming} />
          <PastDates past={data.dates.filter((d) => d.started)} />
        </>
      )}
    </div>
  );
}
