/** The course's audit log (GET /changes?entity=course&entityId=): who changed what, newest first. */
import { useEffect, useState } from 'react';
import { adminFetch } from '../api.ts';
import { formatShortDateTime } from '../../../domain/time.ts';
import { courseFieldLabel } from '../../../domain/admin/course.ts';

interface Change { at: number; by: { name: string | null }; action: string; fields: string[] }

const ACTIONS: Record<string, string> = {
  create: 'created the course', update: 'changed', publish: 'published the course', unpublish: 'unpublished the course',
  duplicate: 'created the course as a copy', delete: 'deleted the course',
};

export default function CourseHistory({ educatorId, courseId, refresh }: { educatorId: string; courseId: string; refresh: number | null }) {
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let stopped = false;
    void adminFetch<{ changes: Change[] }>('GET', `/educators/${encodeURIComponent(educatorId)}/changes?entity=course&entityId=${encodeURIComponent(courseId)}&limit=30`)
      .then((res) => {
        if (stopped) return;
        if (res.ok) setChanges(res.data.changes);
        else setFailed(true);
      });
    return () => { stopped = true; };
  }, [educatorId, courseId, refresh]);

  if (failed) return <p className="hint">The history could not be loaded.</p>;
  if (!changes) return <p className="hint">Loading the history…</p>;
  if (!changes.length) return <p className="hint">No changes yet.</p>;
  return (
    <ol className="course-history">
      {changes.map((c, i) => (
        <li key={`${c.at}-${i}`}>
          <time dateTime={new Date(c.at * 1000).toISOString()}>{formatShortDateTime(c.at)}</time>{' '}
          <strong>{c.by.name ?? 'Someone'}</strong> {ACTIONS[c.action] ?? c.action}
          {c.action === 'update' && c.fields.length ? `: ${c.fields.map((f) => courseFieldLabel(f).toLowerCase()).join(', ')}` : ''}
        </li>
      ))}
    </ol>
  );
}
