/**
 * Form pieces of the educator's admin screens: a labelled input with its hint and its error linked to it
 * (aria-describedby, aria-invalid), so every field reads the same to a screen reader and shows the server's message
 * for its key (`problem.fields[key]`, api.ts) beside it.
 */
import type { ReactNode } from 'react';

export interface FieldProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Renders the control with the ids it must carry. */
  children: (aria: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
  className?: string;
}

export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

export function Field({ id, label, hint, error, children, className }: FieldProps) {
  return (
    <div className={`admin-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      {children({ id, 'aria-describedby': describedBy(id, hint, error), 'aria-invalid': error ? true : undefined })}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** A checkbox with its label after it, and an optional hint and error. */
export function Check({ id, label, hint, error, checked, onChange }: { id: string; label: ReactNode; hint?: ReactNode; error?: string | null; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <div className="edu-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? true : undefined} />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
        {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
      </div>
    </div>
  );
}

/** The message of a field: its own key, or any key under it ('working_hours.monday' for 'working_hours.monday.0.from'). */
export function errorOf(fields: Record<string, string>, key: string): string | null {
  return fields[key] ?? null;
}
