/**
 * The small parts the catalogue screens' islands share (dates, forms, locations, collections, promo codes, gift
 * vouchers, memberships): labelled fields whose message from the server sits beside them (aria-describedby,
 * aria-invalid), the problem banner (role=alert, focused), and the save/remove plumbing with revisions — a 409
 * "Changed Since You Opened It" offers to reload instead of overwriting.
 */
import { useUnsavedWarning } from '../useUnsavedWarning.ts';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { adminFetch, type AdminProblem } from '../api.ts';
import './catalogue.css';

export type FieldErrors = Record<string, string>;

interface FieldProps {
  label: string;
  /** The key of this field's message in the problem (e.g. 'address.line1'). */
  name: string;
  errors?: FieldErrors;
  hint?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true; name: string }) => ReactNode;
}

/** A label, the control, its hint and its message. */
export function Field({ label, name, errors, hint, children }: FieldProps) {
  const id = `f-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const error = errors?.[name];
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field" data-field={name}>
      <label htmlFor={id}>{label}</label>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      {children({ id, name, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

export function TextField({ label, name, value, onChange, errors, hint, type = 'text', required, inputMode, autoComplete, placeholder, disabled }: {
  label: string; name: string; value: string; onChange: (v: string) => void; errors?: FieldErrors; hint?: string;
  type?: string; required?: boolean; inputMode?: 'decimal' | 'numeric' | 'text'; autoComplete?: string; placeholder?: string; disabled?: boolean;
}) {
  return (
    <Field label={label} name={name} errors={errors} hint={hint}>
      {(p) => <input {...p} type={type} value={value} required={required} inputMode={inputMode} autoComplete={autoComplete ?? 'off'} placeholder={placeholder} disabled={disabled} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

export function TextArea({ label, name, value, onChange, errors, hint, rows = 3 }: { label: string; name: string; value: string; onChange: (v: string) => void; errors?: FieldErrors; hint?: string; rows?: number }) {
  return (
    <Field label={label} name={name} errors={errors} hint={hint}>
      {(p) => <textarea {...p} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

export function SelectField({ label, name, value, onChange, options, errors, hint, disabled }: {
  label: string; name: string; value: string; onChange: (v: string) => void; options: readonly { value: string; label: string }[]; errors?: FieldErrors; hint?: string; disabled?: boolean;
}) {
  return (
    <Field label={label} name={name} errors={errors} hint={hint}>
      {(p) => (
        <select {...p} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
    </Field>
  );
}

export function CheckboxField({ label, name, checked, onChange, errors, hint }: { label: string; name: string; checked: boolean; onChange: (v: boolean) => void; errors?: FieldErrors; hint?: string }) {
  const id = `c-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const error = errors?.[name];
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-check" data-field={name}>
      <input id={id} type="checkbox" checked={checked} aria-describedby={describedBy} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** The problem of the last call: its detail, focused so a keyboard or screen reader user hears it; 409 offers a reload. */
export function ProblemAlert({ problem, onReload }: { problem: AdminProblem | null; onReload?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problem) ref.current?.focus();
  }, [problem]);
  if (!problem) return null;
  const fieldCount = Object.keys(problem.fields).length;
  return (
    <div className="admin-status admin-problem" data-kind="error" role="alert" tabIndex={-1} ref={ref} data-testid="problem">
      <p><strong>{problem.title}.</strong> {fieldCount > 0 ? `Please check ${fieldCount === 1 ? 'the field marked below' : `the ${fieldCount} fields marked below`}: ${problem.detail}` : problem.detail}</p>
      {problem.status === 409 && onReload && problem.title === 'Changed Since You Opened It' && (
        <p><button type="button" className="btn btn--secondary btn--small" onClick={onReload}>Reload the latest version</button></p>
      )}
    </div>
  );
}

/** A polite message after an action (saved, removed), for screen readers too. */
export function Notice({ text }: { text: string | null }) {
  return <div className="admin-notice" role="status" aria-live="polite">{text ? <p>{text}</p> : null}</div>;
}

/** Loads `path` and keeps the answer; `reload` fetches again. */
export function useAdminData<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<AdminProblem | null>(null);
  const reload = useCallback(async () => {
    const res = await adminFetch<T>('GET', path);
    if (res.ok) {
      setData(res.data);
      setProblem(null);
    } else setProblem(res.problem);
    return res.ok ? res.data : null;
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, problem, reload };
}

/** Runs a save or removal: tracks `busy`, the problem (and its field messages) and the time of the last success. */
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<AdminProblem | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const run = useCallback(async <T,>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T | null> => {
    setBusy(true);
    setProblem(null);
    const res = await adminFetch<T>(method, path, body);
    setBusy(false);
    if (!res.ok) {
      setProblem(res.problem);
      return null;
    }
    setSavedAt(Date.now());
    return res.data ?? ({} as T);
  }, []);
  return { busy, problem, errors: problem?.fields ?? {}, savedAt, run, clear: () => setProblem(null) };
}

/**
 * The state of a list screen's edit form: the draft being edited (null: none open), whether it has unsaved changes
 * (the browser warns before leaving), the last notice and the item awaiting a removal's confirmation. `set` merges
 * a change into the draft; `open` starts editing a fresh draft with the last save's problem and notice cleared.
 */
export function useDraftEditor<D extends object>(save: { clear(): void }) {
  const [draft, setDraft] = useState<D | null>(null);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  useUnsavedWarning(dirty);
  const set = (patch: Partial<D>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setDirty(true);
  };
  const open = (d: D | null) => {
    save.clear();
    setNotice(null);
    setDraft(d);
    setDirty(false);
  };
  return { draft, setDraft, dirty, setDirty, notice, setNotice, confirming, setConfirming, set, open };
}

/** The API path of one of the educator's things. */
export function educatorPath(educatorId: string, rest: string): string {
  return `/educators/${encodeURIComponent(educatorId)}${rest}`;
}
