/**
 * The Reviews screen (/reviews): the educator's reviews, newest first ("Load more" for the next page); respond
 * to one (the response shows under the review on the public pages, spec 2.11), edit or remove the response, and
 * report an abusive review to the platform team.
 */
import { useEffect, useState } from 'react';
import PublishStatus from '../PublishStatus.tsx';
import { adminFetch, type AdminProblem } from '../api.ts';
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { Notice, ProblemAlert, TextArea, educatorPath, useSave } from '../catalogue/kit.tsx';
import '../business.css';

interface ReviewView {
  id: string; createdAt: number; rating: number; verified: boolean; sourceLabel: string; reviewerName: string; message: string;
  course: { id: string; name: string } | null; response: { message: string; createdAt: number } | null; reported: boolean;
}
type Editing = { id: string; kind: 'response' | 'report'; text: string };

const dateLabel = (s: number) => new Date(s * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });

type Save = ReturnType<typeof useSave>;

/** The form under a review: the response to it, or why it is reported as abusive. */
function ReviewForm({ r, editing, save, onSubmit, onEdit, onCancel }: {
  r: ReviewView; editing: Editing; save: Save; onSubmit: () => void; onEdit: (next: Editing) => void; onCancel: () => void;
}) {
  return (
    <form noValidate onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
      <ProblemAlert problem={save.problem} />
      <TextArea
        label={editing.kind === 'response' ? `Your response to ${r.reviewerName}` : `Why this review is abusive`}
        name={editing.kind === 'response' ? 'message' : 'reason'}
        rows={4} value={editing.text} errors={save.errors}
        onChange={(v) => onEdit({ ...editing, text: v })}
      />
      <div className="cat-actions">
        <button type="submit" className="btn" disabled={save.busy}>{editing.kind === 'response' ? 'Save response' : 'Send report'}</button>
        <button type="button" className="btn btn--secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

/** One review, its response, and either the open form or the buttons: respond (or edit), remove the response, report abuse. */
function ReviewCard({ r, editing, save, onSubmit, onEdit, onCancel, onStart, onRemove }: {
  r: ReviewView; editing: Editing | null; save: Save; onSubmit: () => void; onEdit: (next: Editing) => void; onCancel: () => void;
  onStart: (kind: Editing['kind']) => void; onRemove: () => void;
}) {
  return (
    <li className="biz-card">
      <h2 className="biz-card__title">{r.reviewerName} <span className="biz-muted">· {r.rating} / 5 · {dateLabel(r.createdAt)}</span></h2>
      <p className="biz-muted">
        {r.course ? `Reviewed ${r.course.name}` : `On ${r.sourceLabel}`} · {r.verified ? 'Verified' : 'Unverified'}{r.reported ? ' · Reported' : ''}
      </p>
      <p>{r.message}</p>
      {r.response ? (
        <blockquote className="biz-response">
          <p className="biz-muted">Your response, {dateLabel(r.response.createdAt)}</p>
          <p>{r.response.message}</p>
        </blockquote>
      ) : null}
      {editing ? <ReviewForm r={r} editing={editing} save={save} onSubmit={onSubmit} onEdit={onEdit} onCancel={onCancel} /> : (
        <div className="cat-actions">
          <button type="button" className="btn btn--secondary btn--small" aria-label={`${r.response ? 'Edit response to' : 'Respond to'} ${r.reviewerName}`}
            onClick={() => onStart('response')}>{r.response ? 'Edit response' : 'Respond'}</button>
          {r.response ? (
            <button type="button" className="btn btn--secondary btn--small" aria-label={`Remove response to ${r.reviewerName}`} onClick={onRemove}>Remove response</button>
          ) : null}
          {r.reported ? null : (
            <button type="button" className="btn btn--secondary btn--small" aria-label={`Report abuse: review by ${r.reviewerName}`}
              onClick={() => onStart('report')}>Report abuse</button>
          )}
        </div>
      )}
    </li>
  );
}

export default function ReviewsScreen({ educatorId }: { educatorId: string }) {
  const [reviews, setReviews] = useState<ReviewView[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadProblem, setLoadProblem] = useState<AdminProblem | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [savedCourse, setSavedCourse] = useState<string | undefined>(undefined);
  const save = useSave();
  useUnsavedWarning(dirty);

  async function load(before: string | null) {
    const res = await adminFetch<{ reviews: ReviewView[]; next: string | null }>('GET', educatorPath(educatorId, `/reviews${before ? `?before=${encodeURIComponent(before)}` : ''}`));
    if (!res.ok) return setLoadProblem(res.problem);
    setReviews((old) => (before && old ? [...old, ...res.data.reviews] : res.data.reviews));
    setNext(res.data.next);
  }
  useEffect(() => { void load(null); }, [educatorId]); // eslint-disable-line react-hooks/exhaustive-deps

  const replace = (id: string, patch: Partial<ReviewView>) => setReviews((rs) => rs?.map((r) => (r.id === id ? { ...r, ...patch } : r)) ?? rs);

  async function submit(r: ReviewView) {
    if (!editing) return;
    if (editing.kind === 'response') {
      const res = await save.run<{ response: ReviewView['response'] }>('PUT', educatorPath(educatorId, `/reviews/${encodeURIComponent(r.id)}/response`), { message: editing.text });
      if (!res) return;
      replace(r.id, { response: res.response });
      setNotice(`Response to ${r.reviewerName} saved. It goes live on your pages in a few seconds.`);
      setSavedCourse(r.course?.id);
    } else {
      const res = await save.run('POST', educatorPath(educatorId, `/reviews/${encodeURIComponent(r.id)}/report`), { reason: editing.text });
      if (!res) return;
      replace(r.id, { reported: true });
      setNotice(`Review by ${r.reviewerName} reported. The platform team will look at it.`);
    }
    setEditing(null);
    setDirty(false);
  }

  async function removeResponse(r: ReviewView) {
    const res = await save.run('DELETE', educatorPath(educatorId, `/reviews/${encodeURIComponent(r.id)}/response`));
    if (!res) return;
    replace(r.id, { response: null });
    setNotice(`Response to ${r.reviewerName} removed.`);
    setSavedCourse(r.course?.id);
  }

  if (loadProblem && !reviews) return <ProblemAlert problem={loadProblem} />;
  if (!reviews) return <p role="status">Loading reviews…</p>;
  return (
    <div data-testid="reviews-screen" className="biz">
      <Notice text={notice} />
      <ProblemAlert problem={editing ? null : save.problem} />
      <PublishStatus educatorId={educatorId} courseId={savedCourse} savedAt={save.savedAt} />
      {reviews.length === 0 ? <p className="admin-empty">No reviews yet.</p> : (
        <ul className="biz-list">
          {reviews.map((r) => (
            <ReviewCard key={r.id} r={r} editing={editing?.id === r.id ? editing : null} save={save}
              onSubmit={() => void submit(r)} onEdit={(next) => { setEditing(next); setDirty(true); }}
              onCancel={() => { setEditing(null); setDirty(false); save.clear(); }}
              onStart={(kind) => { save.clear(); setEditing({ id: r.id, kind, text: kind === 'response' ? r.response?.message ?? '' : '' }); }}
              onRemove={() => void removeResponse(r)} />
          ))}
        </ul>
      )}
      {next ? <p><button type="button" className="btn btn--secondary" onClick={() => void load(next)}>Load more</button></p> : null}
    </div>
  );
}
