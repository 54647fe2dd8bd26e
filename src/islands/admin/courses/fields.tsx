/**
 * The course editor's labelled fields: every input has a visible label, its hint and its error are linked with
 * aria-describedby, an error sets aria-invalid. `name` is the field's path in the API ('offers.0.price'), which
 * is also how a problem names it, so the server's message lands beside the right input.
 */
import type { ReactNode } from 'react';
import { fieldId } from '../../../domain/admin/course-form.ts';

interface Base {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Parts({ id, label, hint, error, required, children }: { id: string; label: ReactNode; hint?: ReactNode; error?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}{required ? <span aria-hidden="true"> *</span> : null}</label>
      {hint ? <p className="hint" id={`${id}-hint`}>{hint}</p> : null}
      {children}
      {error ? <p className="field-error" id={`${id}-error`}>{error}</p> : null}
    </div>
  );
}

export function TextField(props: Base & {
  value: string; onChange(value: string): void; type?: 'text' | 'email' | 'url' | 'datetime-local' | 'number'; inputMode?: 'text' | 'decimal' | 'numeric';
  maxLength?: number; autoComplete?: string; placeholder?: string; onBlur?(): void;
}) {
  const id = fieldId(props.name);
  return (
    <Parts id={id} label={props.label} hint={props.hint} error={props.error} required={props.required}>
      <input
        id={id} name={props.name} type={props.type ?? 'text'} value={props.value} inputMode={props.inputMode} maxLength={props.maxLength}
        autoComplete={props.autoComplete ?? 'off'} placeholder={props.placeholder} required={props.required}
        aria-invalid={props.error ? true : undefined} aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(e) => props.onChange(e.currentTarget.value)} onBlur={props.onBlur}
      />
    </Parts>
  );
}

/** An amount in pounds: the £ sign beside the input, the label says it too. */
export function MoneyField(props: Base & { value: string; onChange(value: string): void }) {
  const id = fieldId(props.name);
  return (
    <Parts id={id} label={props.label} hint={props.hint} error={props.error} required={props.required}>
      <span className="money-input">
        <span aria-hidden="true">£</span>
        <input
          id={id} name={props.name} type="text" inputMode="decimal" value={props.value} autoComplete="off" required={props.required}
          aria-invalid={props.error ? true : undefined} aria-describedby={describedBy(id, props.hint, props.error)}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      </span>
    </Parts>
  );
}

export function TextArea(props: Base & { value: string; onChange(value: string): void; rows?: number; maxLength?: number }) {
  const id = fieldId(props.name);
  return (
    <Parts id={id} label={props.label} hint={props.hint} error={props.error} required={props.required}>
      <textarea
        id={id} name={props.name} rows={props.rows ?? 3} value={props.value} maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined} aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </Parts>
  );
}

export function SelectField(props: Base & { value: string; onChange(value: string): void; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = fieldId(props.name);
  return (
    <Parts id={id} label={props.label} hint={props.hint} error={props.error} required={props.required}>
      <select
        id={id} name={props.name} value={props.value} required={props.required}
        aria-invalid={props.error ? true : undefined} aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Parts>
  );
}

export function CheckField(props: Base & { checked: boolean; onChange(checked: boolean): void }) {
  const id = fieldId(props.name);
  return (
    <div className="admin-check">
      <input
        id={id} name={props.name} type="checkbox" checked={props.checked}
        aria-invalid={props.error ? true : undefined} aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint ? <p className="hint" id={`${id}-hint`}>{props.hint}</p> : null}
      {props.error ? <p className="field-error" id={`${id}-error`}>{props.error}</p> : null}
    </div>
  );
}

/** A group of checkboxes (a fieldset with its legend), e.g. the delivery modes. */
export function CheckGroup(props: Base & { values: string[]; onChange(values: string[]): void; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = fieldId(props.name);
  return (
    <fieldset className="admin-fieldset" aria-describedby={describedBy(id, props.hint, props.error)}>
      <legend>{props.label}</legend>
      {props.hint ? <p className="hint" id={`${id}-hint`}>{props.hint}</p> : null}
      <div className="admin-checks">
        {props.options.map((o, i) => (
          <span className="admin-check" key={o.value}>
            <input
              id={i === 0 ? id : `${id}-${o.value}`} type="checkbox" checked={props.values.includes(o.value)}
              onChange={(e) => props.onChange(e.currentTarget.checked ? [...props.values, o.value] : props.values.filter((v) => v !== o.value))}
            />
            <label htmlFor={i === 0 ? id : `${id}-${o.value}`}>{o.label}</label>
          </span>
        ))}
      </div>
      {props.error ? <p className="field-error" id={`${id}-error`}>{props.error}</p> : null}
    </fieldset>
  );
}
