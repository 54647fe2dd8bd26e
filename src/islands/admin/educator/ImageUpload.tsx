/**
 * The logo or cover: the image it has now, a file input (JPEG, PNG or WebP, up to 10 MB) that uploads at once with a
 * progress bar (XMLHttpRequest's upload progress; fetch reports none), and "Remove". The upload stores the file
 * (POST /api/admin/educators/{id}/images/{kind}); the profile's Save puts it on the pages.
 */
import { useRef, useState } from 'react';
import { describedBy } from './fields.tsx';

const MAX_BYTES = 10 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'image/webp'];

interface Props {
  id: string;
  educatorId: string;
  kind: 'logo' | 'cover';
  label: string;
  value: string | null;
  error?: string | null;
  onChange(url: string | null): void;
}

type Upload = { ok: true; url: string } | { ok: false; message: string };

/** The upload, reporting progress 0–100; its problem's message for the file (or its detail) on failure. */
function send(path: string, file: File, progress: (percent: number) => void): Promise<Upload> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/admin${path}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText || '{}');
      } catch {
        /* not JSON */
      }
      if (xhr.status === 201 && typeof body.url === 'string') return resolve({ ok: true, url: body.url });
      const fields = Array.isArray(body.properties) ? (body.properties as { key?: string; message?: string }[]) : [];
      const field = fields.find((p) => p.key === 'file')?.message;
      resolve({ ok: false, message: field ? `The file ${field}.` : String(body.detail ?? 'The upload failed. Please try again.') });
    };
    xhr.onerror = () => resolve({ ok: false, message: 'We could not reach the server. Check your connection and try again.' });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

export default function ImageUpload({ id, educatorId, kind, label, value, error, onChange }: Props) {
  const [percent, setPercent] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const shown = message ?? error ?? null;
  const hint = `JPEG, PNG or WebP, up to 10 MB. ${kind === 'logo' ? 'Square works best; shown up to 160 pixels wide.' : 'Wide works best (about 1920 × 720); shown across the top of your pages.'}`;

  async function choose(file: File | undefined) {
    if (!file) return;
    setMessage(null);
    if (file.size > MAX_BYTES) return setMessage('The file must be at most 10 MB.');
    if (file.type && !TYPES.includes(file.type)) return setMessage('The file must be a JPEG, PNG or WebP image.');
    setPercent(0);
    setAnnounce(`Uploading the ${kind}…`);
    const result = await send(`/educators/${encodeURIComponent(educatorId)}/images/${kind}`, file, setPercent);
    setPercent(null);
    if (input.current) input.current.value = '';
    if (!result.ok) {
      setAnnounce('');
      return setMessage(result.message);
    }
    onChange(result.url);
    setAnnounce(`The ${kind} is uploaded. Save your changes to put it on your pages.`);
  }

  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <p className="hint" id={`${id}-hint`}>{hint}</p>
      <div className="edu-image">
        {value
          ? <img className={kind === 'logo' ? 'edu-logo' : 'edu-cover'} src={value} alt={`Your ${kind} as it will be shown`} />
          : <span className="edu-image-empty">No {kind} yet</span>}
        <div>
          <input
            ref={input}
            id={id}
            type="file"
            accept={TYPES.join(',')}
            aria-describedby={describedBy(id, hint, shown)}
            aria-invalid={shown ? true : undefined}
            disabled={percent !== null}
            onChange={(e) => void choose(e.currentTarget.files?.[0])}
            data-testid={`${kind}-file`}
          />
          {percent !== null && (
            <div className="edu-progress">
              <progress id={`${id}-progress`} max={100} value={percent} aria-label={`Uploading the ${kind}`} />
              <span>{percent}%</span>
            </div>
          )}
          {value && percent === null && (
            <p><button type="button" className="btn btn--secondary btn--small" onClick={() => { onChange(null); setAnnounce(`The ${kind} will be removed when you save.`); }}>Remove {kind}</button></p>
          )}
        </div>
      </div>
      <p className="visually-hidden" role="status">{announce}</p>
      {shown && <p className="field-error" id={`${id}-error`}>{shown}</p>}
    </div>
  );
}
