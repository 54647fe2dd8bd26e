/**
 * Spec 2.14 "Invoice" / 5: Business or Billing Name (required), Billing Email, Your Tax / VAT number,
 * Additional billing instructions / PO number, Billing Address (required); "This invoice will be due by
 * {date}." and "Pay by Invoice" ("invoice details added").
 */
import { useState } from 'react';
import { showProblem, submitAction } from '../../../stores/checkout.ts';
import { INVOICE_FIELD_LABELS, validateInvoiceDetails, type InvoiceDetails } from '../../../domain/checkout/validation.ts';
import { invoiceDueDate, invoiceDueText } from '../../../domain/checkout/messages.ts';
import { PAY_BY_INVOICE } from '../../../domain/checkout/constants.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { problems } from '../../../domain/problems.ts';

type Field = keyof typeof INVOICE_FIELD_LABELS;
const FIELDS: { name: Field; required: boolean; multiline?: boolean; type?: string; autoComplete?: string }[] = [
  { name: 'billing_name', required: true, autoComplete: 'organization' },
  { name: 'billing_email', required: false, type: 'email', autoComplete: 'email' },
  { name: 'vat_number', required: false },
  { name: 'recipient_instructions', required: false, multiline: true },
  { name: 'billing_address', required: true, multiline: true, autoComplete: 'street-address' },
];

export function InvoiceForm({ dueDays, initial, disabled }: { dueDays: number; initial: Partial<InvoiceDetails>; disabled: boolean }) {
  const [details, setDetails] = useState<Record<Field, string>>({
    billing_name: initial.billing_name ?? '',
    billing_email: initial.billing_email ?? '',
    vat_number: '',
    recipient_instructions: '',
    billing_address: '',
  });
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const dueDate = invoiceDueDate(Math.floor(Date.now() / 1000), dueDays);

  function submit() {
    const properties = validateInvoiceDetails(details, 'payload');
    setInvalid(new Set(properties.map((p) => p.key)));
    if (properties.length) {
      showProblem(problems.validation(properties));
      return;
    }
    const payload: Record<string, string | null> = {};
    for (const f of FIELDS) payload[f.name] = details[f.name].trim() || null;
    void submitAction('invoice details added', payload);
  }

  return (
    <form
      className="stack invoice-form"
      aria-label="Invoice details"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {FIELDS.map((f) => {
        const id = fieldDomId(`payload.${f.name}`);
        const common = {
          id,
          name: f.name,
          required: f.required,
          'aria-required': f.required || undefined,
          'aria-invalid': invalid.has(`payload.${f.name}`) || undefined,
          autoComplete: f.autoComplete ?? 'off',
          value: details[f.name],
          onChange: (e: { target: { value: string } }) => setDetails({ ...details, [f.name]: e.target.value }),
        };
        return (
          <div key={f.name} className="field">
            <label htmlFor={id}>
              {INVOICE_FIELD_LABELS[f.name]}
              {f.required && <span aria-hidden="true"> *</span>}
            </label>
            {f.multiline ? <textarea rows={3} {...common} /> : <input type={f.type ?? 'text'} {...common} />}
          </div>
        );
      })}
      <p>{invoiceDueText(dueDate)}</p>
      <button type="submit" className="btn btn--block" disabled={disabled}>{PAY_BY_INVOICE}</button>
    </form>
  );
}
