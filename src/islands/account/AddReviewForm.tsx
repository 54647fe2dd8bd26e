/**
 * The add-review screen behind every add-review link (spec 2.3): a rating from 1 to 5, the optional six-part
 * breakdown (spec 3 "Review aggregate"), and a message. The server marks it verified when the reviewer has a
 * booking or order, and updates the aggregates.
 */
import { useState, type SubmitEvent } from 'react';
import { readError } from '../../lib/api.ts';
import { apiFetch } from '../../stores/identity.ts';
import './account.css';

export const BREAKDOWN_PARTS = [
  { key: 'material', label: 'Material Covered' },
  { key: 'facilitator', label: 'Facilitator' },
  { key: 'organiser', label: 'Organiser' },
  { key: 'resources', label: 'Resources Provided' },
  { key: 'delivery', label: 'Location/Delivery' },
  { key: 'communication', label: 'Communication' },
] as const;

export interface AddReviewFormProps {
  educatorSlug: string;
  educatorName: string;
  course: { slug: string; name: string } | null;
  /** Where the new review can be seen (the course page or the reviews page). */
  doneHref: string;
}

function Stars({ value, onChange }: { value: number; onChange: (n: number) => void }) {
  return (
    <fieldset className="rating-input">
      <legend>Rating (required)</legend>
      {[1, 2, 3, 4, 5].map((n) => (
        <label key={n} className={n <= value ? 'is-on' : undefined} title={`${n} out of 5`}>
          <input type="radio" name="rating" value={n} checked={value === n} onChange={() => onChange(n)} required aria-label={`${n} out of 5 stars`} />
          <span aria-hidden="true">★</span>
        </label>
      ))}
    </fieldset>
  );
}

export default function AddReviewForm({ educatorSlug, educatorName, course, doneHref }: AddReviewFormProps) {
  const [rating, setRating] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ verified: boolean } | null>(null);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (rating < 1) {
      setError('Please choose a rating from 1 to 5 stars.');
      return;
    }
    const data = new FormData(event.currentTarget);
    const breakdown: Record<string, number> = {};
    for (const part of BREAKDOWN_PARTS) {
      const v = Number(data.get(part.key));
      if (v >= 1 && v <= 5) breakdown[part.key] = v;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch('/reviews', {
        method: 'POST',
        body: JSON.stringify({
          educatorSlug,
          courseSlug: course?.slug ?? null,
          rating,
          breakdown: Object.keys(breakdown).length ? breakdown : null,
          message: String(data.get('message') ?? ''),
        }),
      });
      if (!res.ok) {
        const problem = await readError(res);
        setError(problem.detail || problem.title);
        return;
      }
      const review = (await res.json()) as { verified: boolean };
      setDone({ verified: review.verified });
    } catch {
      setError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="panel" role="status" data-testid="review-done">
        <h2>Thank you for your review</h2>
        <p>Your review of {course ? course.name : educatorName} is published{done.verified ? ' and marked as verified' : ''}.</p>
        <a className="btn" href={doneHref}>See your review</a>
      </div>
    );
  }

  return (
    <form className="panel form" onSubmit={submit} data-testid="add-review-form">
      <Stars value={rating} onChange={setRating} />
      <details>
        <summary>Rate the details (optional)</summary>
        <div className="breakdown-input" style={{ marginTop: '0.75rem' }}>
          {BREAKDOWN_PARTS.map((part) => (
            <div className="field" key={part.key}>
              <label htmlFor={`part-${part.key}`}>{part.label}</label>
              <select id={`part-${part.key}`} name={part.key} defaultValue="">
                <option value="">Not rated</option>
                {[5, 4, 3, 2, 1].map((n) => <option key={n} value={n}>{n} out of 5</option>)}
              </select>
            </div>
          ))}
        </div>
      </details>
      <div className="field">
        <label htmlFor="review-message">Your review</label>
        <textarea id="review-message" name="message" required maxLength={5000} placeholder="What was it like?" />
      </div>
      {error && <p className="alert alert--danger" role="alert">{error}</p>}
      <div><button type="submit" className="btn" disabled={busy}>{busy ? 'Sending…' : 'Submit review'}</button></div>
    </form>
  );
}
