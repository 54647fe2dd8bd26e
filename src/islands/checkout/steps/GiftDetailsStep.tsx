/**
 * The gift voucher's Gift Details step: the buyer's and the recipient's names and e-mails, a message and the date the
 * recipient receives it ("gift details filled"). Starts from the server's defaults (the account's name and e-mail, today).
 */
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { $checkout, submitAction } from '../../../stores/checkout.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { MAX_GIFT_MESSAGE, type GiftDetails } from '../../../domain/gift-limits.ts';
import { StepForm, StepHeading, useContinue } from '../shared.tsx';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';

const FIELDS: { key: keyof GiftDetails; label: string; type: string; autoComplete?: string }[] = [
  { key: 'buyerName', label: 'Your name', type: 'text', autoComplete: 'name' },
  { key: 'buyerEmail', label: 'Your email', type: 'email', autoComplete: 'email' },
  { key: 'recipientName', label: "Recipient's name", type: 'text' },
  { key: 'recipientEmail', label: "Recipient's email", type: 'email' },
];

export default function GiftDetailsStep() {
  const state = useStore($checkout)!;
  const stored = stepStateOf(state.stepState, 'giftDetails');
  const defaults: Partial<GiftDetails> = state.defaults?.giftDetails ?? {};
  const [values, setValues] = useState<GiftDetails>({
    buyerName: '', buyerEmail: '', recipientName: '', recipientEmail: '', message: '', sendDate: '', ...defaults, ...stored,
  });
  useContinue({ enabled: true });
  const set = (key: keyof GiftDetails) => (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value });
  return (
    <StepForm onSubmit={() => void submitAction('gift details filled', { ...values })}>
      <StepHeading>{STEP_TITLES.giftDetails}</StepHeading>
      {FIELDS.map((f) => (
        <div className="field" key={f.key}>
          <label htmlFor={fieldDomId(`payload.${f.key}`)}>{f.label}</label>
          <input id={fieldDomId(`payload.${f.key}`)} type={f.type} autoComplete={f.autoComplete} value={values[f.key]} onChange={set(f.key)} required />
        </div>
      ))}
      <div className="field">
        <label htmlFor={fieldDomId('payload.message')}>Message (optional)</label>
        <textarea id={fieldDomId('payload.message')} rows={4} maxLength={MAX_GIFT_MESSAGE} value={values.message} onChange={set('message')} />
      </div>
      <div className="field">
        <label htmlFor={fieldDomId('payload.sendDate')}>Send it on</label>
        <input id={fieldDomId('payload.sendDate')} type="date" min={defaults.sendDate} value={values.sendDate} onChange={set('sendDate')} required />
      </div>
    </StepForm>
  );
}
