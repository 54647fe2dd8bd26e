/**
 * The educator-defined form (spec 3 "Form", 5 "Required form fields"): one control per field for every
 * data_type (url, address, boolean, checkbox, date, dropdown, email, first_name, last_name, number, radio,
 * tel, text, textarea, statement); the `educator_marketing_consent` field is removed; the system fields and
 * fields with a "required" validation are required; the booker's e-mail is disabled with "You cannot edit
 * this email address.". Every control's id is fieldDomId('{pathPrefix}.{fieldId}'), so the error banner's
 * validation properties link to it.
 */
import type { ReactNode } from 'react';
import { displayedFields, isFieldLocked, requiredFieldIds, type FormField, type FormResponse } from '../../../domain/checkout/validation.ts';
import { SYSTEM_EMAIL_LOCKED_DESCRIPTION } from '../../../domain/checkout/constants.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import type { FormView } from '../types.ts';

function itemsOf(field: FormField): { value: string; label: string }[] {
  return (field.items ?? []).map((item) => {
    if (typeof item === 'string' || typeof item === 'number') return { value: String(item), label: String(item) };
    const o = (item ?? {}) as { value?: unknown; label?: unknown; name?: unknown };
    const value = String(o.value ?? o.label ?? o.name ?? '');
    return { value, label: String(o.label ?? o.name ?? value) };
  });
}

const AUTOCOMPLETE: Record<string, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  tel: 'tel',
  address: 'street-address',
  url: 'url',
};

const INPUT_TYPE: Record<string, string> = {
  url: 'url',
  email: 'email',
  tel: 'tel',
  date: 'date',
  number: 'number',
  first_name: 'text',
  last_name: 'text',
  text: 'text',
};

export interface FormRendererProps {
  form: FormView;
  values: FormResponse;
  onChange: (values: FormResponse) => void;
  role: 'booker' | 'attendee';
  /** e.g. 'payload.bookerFormResponse' or 'payload.attendeeFormResponses.0' */
  pathPrefix: string;
  /** Messages per validation key (from the error banner's problem). */
  errors?: Record<string, string>;
  /** Attendee forms get their own autocomplete section so the browser does not fill them with the booker's details. */
  autocompleteSection?: string;
}

export default function FormRenderer({ form, values, onChange, role, pathPrefix, errors = {}, autocompleteSection }: FormRendererProps) {
  const required = new Set(requiredFieldIds(form));
  const set = (id: string, value: unknown) => onChange({ ...values, [id]: value });

  return (
    <div className="form-fields stack">
      {displayedFields(form).map((field) => {
        const type = field.data_type ?? 'text';
        const key = `${pathPrefix}.${field._id}`;
        const id = fieldDomId(key);
        const label = field.label?.trim() || field._id;
        const locked = isFieldLocked(field._id, role);
        const isRequired = required.has(field._id) && type !== 'statement';
        const description = locked ? SYSTEM_EMAIL_LOCKED_DESCRIPTION : field.description?.trim() || null;
        const error = errors[key];
        const describedBy = [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
        const auto = AUTOCOMPLETE[type] ? `${autocompleteSection ? `section-${autocompleteSection} ` : ''}${AUTOCOMPLETE[type]}` : 'off';
        const common = {
          id,
          name: key,
          required: isRequired,
          'aria-required': isRequired || undefined,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy,
        } as const;
        const labelText = (
          <>
            {label}
            {isRequired && <span aria-hidden="true"> *</span>}
          </>
        );
        const help = (
          <>
            {description && <p id={`${id}-description`} className="field__help small muted">{description}</p>}
            {error && <p id={`${id}-error`} className="field__error small">{error}</p>}
          </>
        );
        const text = typeof values[field._id] === 'string' || typeof values[field._id] === 'number' ? String(values[field._id]) : '';
        let control: ReactNode;

        switch (type) {
          case 'statement':
            return (
              <div key={field._id} className="form-statement" id={id}>
                <p>{label}</p>
                {field.description && <p className="small muted">{field.description}</p>}
              </div>
            );
          case 'boolean':
            return (
              <div key={field._id} className="field field--check">
                <input {...common} type="checkbox" checked={values[field._id] === true} onChange={(e) => set(field._id, e.target.checked)} />
                <label htmlFor={id}>{labelText}</label>
                {help}
              </div>
            );
          case 'checkbox': {
            const chosen = Array.isArray(values[field._id]) ? (values[field._id] as string[]) : [];
            return (
              <fieldset key={field._id} className="field radio-group" id={id} tabIndex={-1} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
                <legend>{labelText}</legend>
                {itemsOf(field).map((item, index) => (
                  <label key={item.value} className="radio-option">
                    <input
                      type="checkbox"
                      id={index === 0 ? `${id}-0` : undefined}
                      name={key}
                      value={item.value}
                      checked={chosen.includes(item.value)}
                      onChange={(e) => set(field._id, e.target.checked ? [...chosen, item.value] : chosen.filter((v) => v !== item.value))}
                    />
                    <span>{item.label}</span>
                  </label>
                ))}
                {help}
              </fieldset>
            );
          }
          case 'radio':
            return (
              <fieldset key={field._id} className="field radio-group" id={id} tabIndex={-1} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
                <legend>{labelText}</legend>
                {itemsOf(field).map((item) => (
                  <label key={item.value} className="radio-option">
                    <input type="radio" name={key} value={item.value} required={isRequired} checked={text === item.value} onChange={() => set(field._id, item.value)} />
                    <span>{item.label}</span>
                  </label>
                ))}
                {help}
              </fieldset>
            );
          case 'dropdown':
            control = (
              <select {...common} value={text} onChange={(e) => set(field._id, e.target.value)}>
                <option value="">Select…</option>
                {itemsOf(field).map((item) => <option key={item.value} value={item.value}>{item.label}</option>)}
              </select>
            );
            break;
          case 'textarea':
          case 'address':
            control = <textarea {...common} rows={type === 'address' ? 3 : 4} autoComplete={auto} value={text} onChange={(e) => set(field._id, e.target.value)} />;
            break;
          case 'number':
            control = (
              <input
                {...common}
                type="number"
                inputMode="numeric"
                value={text}
                onChange={(e) => set(field._id, e.target.value === '' ? null : Number(e.target.value))}
              />
            );
            break;
          default:
            control = (
              <input
                {...common}
                type={INPUT_TYPE[type] ?? 'text'}
                autoComplete={auto}
                value={text}
                disabled={locked}
                readOnly={locked}
                onChange={(e) => set(field._id, e.target.value)}
              />
            );
        }
        return (
          <div key={field._id} className="field">
            <label htmlFor={id}>{labelText}</label>
            {control}
            {help}
          </div>
        );
      })}
    </div>
  );
}
