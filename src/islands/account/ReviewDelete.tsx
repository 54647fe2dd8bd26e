/**
 * The review author's delete control (spec 2.11, 4 "Review deletion", 6): a trash icon on each review whose
 * `data-reviewer-id` equals the signed-in studentId → Delete / Cancel → ArchiveReview → the page reloads.
 * The server refuses anyone else (403); hiding the icon is only courtesy.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '@nanostores/react';
import { $identity, apiFetch, loadIdentity } from '../../stores/identity.ts';
import { canDeleteReview } from '../../domain/ratings.ts';
import './account.css';

interface Mount {
  el: HTMLElement;
  reviewId: string;
}

function Trash() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </svg>
  );
}

export function DeleteControl({ reviewId, onDeleted }: { reviewId: string; onDeleted: () => void }) {
  const [state, setState] = useState<'idle' | 'confirming' | 'deleting'>('idle');
  const [error, setError] = useState<string | null>(null);
  if (state === 'idle') {
    return (
      <button type="button" className="review-delete__icon" aria-label="Delete review" title="Delete review" data-testid="review-delete" onClick={() => setState('confirming')}>
        <Trash />
      </button>
    );
  }
  return (
    <span className="review-delete" role="group" aria-label="Delete this review?">
      <button
        type="button"
        className="btn btn--small"
        disabled={state === 'deleting'}
        onClick={async () => {
          setState('deleting');
          setError(null);
          const res = await apiFetch(`/reviews/${encodeURIComponent(reviewId)}`, { method: 'DELETE' }).catch(() => null);
          if (res && res.ok) {
            onDeleted();
            return;
          }
          setError('The review could not be deleted. Please try again.');
          setState('confirming');
        }}
      >
        Delete
      </button>
      <button type="button" className="btn btn--small btn--secondary" onClick={() => setState('idle')} disabled={state === 'deleting'}>Cancel</button>
      {error && <span className="field__error" role="alert">{error}</span>}
    </span>
  );
}

export default function ReviewDelete() {
  const identity = useStore($identity);
  const [mounts, setMounts] = useState<Mount[]>([]);

  useEffect(() => {
    void loadIdentity();
  }, []);

  useEffect(() => {
    const studentId = identity.studentId;
    // Tells whoever waits for the page (a browser test) that the controls now match the signed-in learner.
    if (identity.ready) document.documentElement.dataset.reviewActionsReady = 'true';
    if (!identity.authenticated || !studentId) {
      setMounts([]);
      return;
    }
    const refresh = () => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('[data-reviewer-id][data-review-id]'))
        .filter((el) => canDeleteReview(studentId, { reviewer: { id: el.dataset.reviewerId } }))
        .map((el) => ({ el, reviewId: el.dataset.reviewId as string }));
      setMounts((prev) => (prev.length === found.length && prev.every((m, i) => m.el === found[i].el) ? prev : found));
    };
    refresh();
    const observer = new MutationObserver(refresh);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [identity.ready, identity.authenticated, identity.studentId]);

  return <>{mounts.map((m) => createPortal(<DeleteControl reviewId={m.reviewId} onDeleted={() => location.reload()} />, m.el, m.reviewId))}</>;
}
