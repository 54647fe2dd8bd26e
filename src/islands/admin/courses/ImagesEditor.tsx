/**
 * The course's images: upload (JPEG, PNG or WebP; the server checks the content, resizes and strips metadata),
 * reorder (the first is the course's main image and its card's), remove. Uploading is announced in a status line.
 */
import { useId, useState } from 'react';
import { adminFetch } from '../api.ts';
import { fieldId } from '../../../domain/admin/course-form.ts';
import { COURSE_LIMITS } from '../../../domain/admin/course.ts';

interface Props {
  educatorId: string;
  courseName: string;
  urls: string[];
  onChange(urls: string[]): void;
  error?: string;
}

export default function ImagesEditor({ educatorId, courseName, urls, onChange, error }: Props) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const inputId = fieldId('img_urls');
  const hintId = useId();

  const upload = async (files: FileList | null) => {
    const list = files ? [...files] : [];
    if (!list.length) return;
    setBusy(true);
    setMessage({ kind: 'info', text: `Uploading ${list.length === 1 ? 'the image' : `${list.length} images`}…` });
    const added: string[] = [];
    for (const file of list) {
      if (urls.length + added.length >= COURSE_LIMITS.images) {
        setMessage({ kind: 'error', text: `A course has at most ${COURSE_LIMITS.images} images.` });
        break;
      }
      const form = new FormData();
      form.append('image', file, file.name);
      const res = await adminFetch<{ url: string }>('POST', `/educators/${encodeURIComponent(educatorId)}/course-images`, form);
      if (!res.ok) {
        setMessage({ kind: 'error', text: `${file.name}: ${res.problem.fields.image ? `Image ${res.problem.fields.image}` : res.problem.detail}` });
        break;
      }
      added.push(res.data.url);
    }
    if (added.length) {
      onChange([...urls, ...added]);
      setMessage({ kind: 'info', text: `${added.length === 1 ? 'Image' : `${added.length} images`} added. Save the course to keep ${added.length === 1 ? 'it' : 'them'}.` });
    }
    setBusy(false);
  };

  const move = (from: number, to: number) => {
    const next = urls.slice();
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onChange(next);
  };

  return (
    <div className="course-images">
      {urls.length ? (
        <ol className="course-images__list">
          {urls.map((url, i) => (
            <li key={url} className="course-images__item">
              <img src={url} alt={`${courseName || 'Course'} – image ${i + 1} of ${urls.length}`} width="160" height="90" loading="lazy" />
              <span className="course-images__actions">
                {i === 0 ? <span className="course-images__main">Main image</span> : null}
                <button type="button" className="btn btn--ghost btn--small" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move image ${i + 1} earlier`}>Earlier</button>
                <button type="button" className="btn btn--ghost btn--small" disabled={i === urls.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move image ${i + 1} later`}>Later</button>
                <button type="button" className="btn btn--ghost btn--small" onClick={() => onChange(urls.filter((_, j) => j !== i))} aria-label={`Remove image ${i + 1}`}>Remove</button>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="hint">No images yet: the course shows an automatically generated picture until you add one.</p>
      )}
      <div className="admin-field">
        <label htmlFor={inputId}>Add images</label>
        <p className="hint" id={hintId}>JPEG, PNG or WebP, up to 10 MB each. Large photos are resized; location and camera details are removed.</p>
        <input
          id={inputId} type="file" accept="image/jpeg,image/png,image/webp" multiple disabled={busy}
          aria-describedby={[hintId, error ? `${inputId}-error` : null].filter(Boolean).join(' ')} aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const input = e.currentTarget;
            void upload(input.files).then(() => { input.value = ''; });
          }}
        />
        {error ? <p className="field-error" id={`${inputId}-error`}>{error}</p> : null}
      </div>
      <p className="admin-status-line" role="status" data-kind={message?.kind}>{message?.text ?? ''}</p>
    </div>
  );
}
