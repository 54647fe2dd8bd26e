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

/** What every control of a field shares: its ids, name, required state, error and description links. */
function controlProps(id: string, key: string, isRequired: boolean, error: string | undefined, describedBy: string | undefined) {
  return {
    id,
    name: key,
    required: isRequired,
    'aria-required': isRequired || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
}

function LabelText({ label, isRequired }: { label: string; isRequired: boolean }) {
  return (
    <>
      {label}
      {isRequired && <span aria-hidden="true"> *</span>}
    </>
  );
}

function FieldHelp({ id, description, error }: { id: string; description: string | null; error: string | undefined }) {
  return (
    <>
      {description && <p id={`${id}-description`} className="field__help small muted">{description}</p>}
      {error && <p id={`${id}-error`} className="field__error small">{error}</p>}
    </>
  );
}

/** The checkbox and radio fields: a fieldset of options, its legend the field's label. */
function OptionsFieldset({ id, describedBy, error, legend, help, children }: {
  id: string; describedBy: string | undefined; error: string | undefined; legend: ReactNode; help: ReactNode; children: ReactNode;
}) {
  return (
    <fieldset className="field radio-group" id={id} tabIndex={-1} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {children}
      {help}
    </fieldset>
  );
}

/** The control of a field shown under its own label: a select, a textarea, a number or another input. */
function LabelledControl({ field, type, common, auto, text, locked, onValue }: {
  field: FormField; type: string; common: ReturnType<typeof controlProps>; auto: string; text: string; locked: boolean; onValue: (value: unknown) => void;
}) {
  switch (type) {
    case 'dropdown':
      return (
        <select {...common} value={text} onChange={(e) => onValue(e.target.value)}>
          <option value="">Select…</option>
          {itemsOf(field).map((item) => <option key={item.value} value={item.value}>{item.label}</option>)}
        </select>
      );
    case 'textarea':
    case 'address':
      return <textarea {...common} rows={type === 'address' ? 3 : 4} autoComplete={auto} value={text} onChange={(e) => onValue(e.target.value)} />;
    case 'number':
      return (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          value={text}
          onChange={(e) => onValue(e.target.value === '' ? null : Number(e.target.value))}
        />
      );
    default:
      return (
        <input
          {...common}
          type={INPUT_TYPE[type] ?? 'text'}
          autoComplete={auto}
          value={text}
          disabled={locked}
          readOnly={locked}
          onChange={(e) => onValue(e.target.value)}
        />
      );
  }
}

interface FieldProps {
  field: FormField;
  value: unknown;
  onValue: (value: unknown) => void;
  role: FormRendererProps['role'];
  pathPrefix: string;
  required: boolean;
  error: string | undefined;
  autocompleteSection?: string;
}

function FormFieldControl({ field, value, onValue, role, pathPrefix, required, error, autocompleteSection }: FieldProps) {
  const type = field.data_type ?? 'text';
  const key = `${pathPrefix}.${field._id}`;
  const id = fieldDomId(key);
  const label = field.label?.trim() || field._id;
  const locked = isFieldLocked(field._id, role);
  const isRequired = required && type !== 'statement';
  const description = locked ? SYSTEM_EMAIL_LOCKED_DESCRIPTION : field.description?.trim() || null;
  const describedBy = [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const auto = AUTOCOMPLETE[type] ? `${autocompleteSection ? `section-${autocompleteSection} ` : ''}${AUTOCOMPLETE[type]}` : 'off';
  const common = controlProps(id, key, isRequired, error, describedBy);
  const labelText = <LabelText label={label} isRequired={isRequired} />;
  const help = <FieldHelp id={id} description={description} error={error} />;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';

  switch (type) {
    case 'statement':
      return (
        <div className="form-statement" id={id}>
          <p>{label}</p>
          {field.description && <p className="small muted">{field.description}</p>}
        </div>
      );
    case 'boolean':
      return (
        <div className="field field--check">
          <input {...common} type="checkbox" checked={value === true} onChange={(e) => onValue(e.target.checked)} />
          <label htmlFor={id}>{labelText}</label>
          {help}
        </div>
      );
    case 'checkbox': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <OptionsFieldset id={id} describedBy={describedBy} error={error} legend={labelText} help={help}>
          {itemsOf(field).map((item, index) => (
            <label key={item.value} className="radio-option">
              <input
                type="checkbox"
                id={index === 0 ? `${id}-0` : undefined}
                name={key}
                value={item.value}
                checked={chosen.includes(item.value)}
                onChange={(e) => onValue(e.target.checked ? [...chosen, item.value] : chosen.filter((v) => v !== item.value))}
              />
              <span>{item.label}</span>
            </label>
          ))}
        </OptionsFieldset>
      );
    }
    case 'radio':
      return (
        <OptionsFieldset id={id} describedBy={describedBy} error={error} legend={labelText} help={help}>
          {itemsOf(field).map((item) => (
            <label key={item.value} className="radio-option">
              <input type="radio" name={key} value={item.value} required={isRequired} checked={text === item.value} onChange={() => onValue(item.value)} />
              <span>{item.label}</span>
            </label>
          ))}
        </OptionsFieldset>
      );
    default:
      return (
        <div className="field">
          <label htmlFor={id}>{labelText}</label>
          <LabelledControl field={field} type={type} common={common} auto={auto} text={text} locked={locked} onValue={onValue} />
          {help}
        </div>
      );
  }
}

export default function FormRenderer({ form, values, onChange, role, pathPrefix, errors = {}, autocompleteSection }: FormRendererProps) {
  const required = new Set(requiredFieldIds(form));
  const set = (id: string, value: unknown) => onChange({ ...values, [id]: value });

  return (
    <div className="form-fields stack">
      {displayedFields(form).map((field) => (
        <FormFieldControl
          key={field._id}
          field={field}
          value={values[field._id]}
          onValue={(value) => set(field._id, value)}
          role={role}
          pathPrefix={pathPrefix}
          required={required.has(field._id)}
          error={errors[`${pathPrefix}.${field._id}`]}
          autocompleteSection={autocompleteSection}
        />
      ))}
    </div>
  );
}
