/**
 * The course editor's parts around its form: the status of a saved course with its previews, the alert that lists
 * what to correct (each a link to its field), and the actions under the form with the delete confirmation.
 */
import type { RefObject } from 'react';
import { adminPath } from '../../../domain/admin-nav.ts';
import { courseFieldLabel } from '../../../domain/admin/course.ts';
import { fieldId } from '../../../domain/admin/course-form.ts';
import { PREVIEW_CONTEXTS, datesToComeText, hasDates, type CourseAlert } from '../../../domain/admin/course-editor.ts';
import type { EditorData } from './useCourseEditor.ts';

/** Published or draft, the dates to come (with a link to them, or for a course without dates to its learners' messages) and the three previews. */
export function CourseSummary({ educatorId, courseId, data }: { educatorId: string; courseId: string; data: EditorData }) {
  const published = data.course.published;
  return (
    <section className="course-editor__summary" aria-labelledby="course-summary">
      <h2 id="course-summary" className="visually-hidden">Status</h2>
      <p>
        <span className="course-badge" data-published={published ? 'true' : 'false'}>{published ? 'Published' : 'Draft'}</span>{' '}
        {datesToComeText(data.dates)}
        {/* A course without dates has its learners' messages on the same screen, below the note that it has none. */}
        {' '}<a href={adminPath(`/courses/${courseId}/dates`, educatorId)}>{hasDates(data.course.type) ? 'Manage dates' : 'Message its learners'}</a>
      </p>
      <p className="course-editor__previews">
        Preview{published ? '' : ' (as it will look once published)'}:{' '}
        {PREVIEW_CONTEXTS.map((p, i) => (
          <span key={p.context}>
            {i ? ', ' : ''}
            <a href={adminPath(`/courses/${courseId}/preview`, educatorId, { context: p.context })} target="_blank" rel="noopener">{p.label}<span className="visually-hidden"> (opens in a new tab)</span></a>
          </span>
        ))}
      </p>
    </section>
  );
}

/** Always in the page (so screen readers hear it when filled); empty until there is something to say. */
export function CourseAlertBox({ alert, alertRef, onReload }: { alert: CourseAlert; alertRef: RefObject<HTMLDivElement | null>; onReload: () => void }) {
  return (
    <div ref={alertRef} tabIndex={-1} role="alert" className={alert ? 'admin-status course-editor__alert' : 'course-editor__alert--empty'} data-kind={alert ? 'error' : undefined}>
      {alert ? (
        <>
          <p>{alert.text}</p>
          {alert.problems.length ? (
            <ul>
              {alert.problems.map((p) => (
                <li key={p.key + p.message}><a href={`#${fieldId(p.key)}`}>{p.name ?? courseFieldLabel(p.key)} {p.message}</a></li>
              ))}
            </ul>
          ) : null}
          {alert.stale ? <p><button type="button" className="btn btn--secondary" onClick={onReload}>Reload the course (your changes are lost)</button></p> : null}
        </>
      ) : null}
    </div>
  );
}

interface ActionsProps {
  courseId: string | null;
  courseName: string | undefined;
  published: boolean;
  dirty: boolean;
  busy: string | null;
  status: string;
  confirmDelete: boolean;
  setConfirmDelete: (on: boolean) => void;
  onPublish: (published: boolean) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}

/** Save (or create), publish or unpublish, duplicate, delete (asked first), and the status of the last action. */
export function CourseActions({ courseId, courseName, published, dirty, busy, status, confirmDelete, setConfirmDelete, onPublish, onDuplicate, onRemove }: ActionsProps) {
  return (
    <>
      <div className="course-actions">
        <button type="submit" className="btn" disabled={busy !== null}>{courseId ? 'Save changes' : 'Create course'}</button>
        {courseId ? (
          published ? (
            <button type="button" className="btn btn--secondary" disabled={busy !== null} onClick={() => onPublish(false)}>Unpublish</button>
          ) : (
            <button type="button" className="btn btn--secondary" disabled={busy !== null} onClick={() => onPublish(true)}>{dirty ? 'Save and publish' : 'Publish'}</button>
          )
        ) : null}
        {courseId ? <button type="button" className="btn btn--secondary" disabled={busy !== null} onClick={onDuplicate}>Duplicate</button> : null}
        {courseId && !confirmDelete ? <button type="button" className="btn btn--ghost course-actions__delete" disabled={busy !== null} onClick={() => setConfirmDelete(true)}>Delete…</button> : null}
        <span className="course-actions__status" role="status">{status}</span>
      </div>
      {confirmDelete ? (
        <div className="course-confirm" role="group" aria-labelledby="confirm-delete">
          <p id="confirm-delete">Delete “{courseName}”? Its pages go at once. A course with past bookings is kept for their records.</p>
          <button type="button" className="btn course-confirm__danger" ref={(b) => b?.focus()} onClick={onRemove}>Delete the course</button>{' '}
          <button type="button" className="btn btn--secondary" onClick={() => setConfirmDelete(false)}>Keep it</button>
        </div>
      ) : null}
    </>
  );
}
