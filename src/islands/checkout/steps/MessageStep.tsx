/**
 * Spec 2.14 "Message": a textarea labelled "Write a message for {educator}", submitted under the action the flow's
 * rules name ("request message filled" / "message filled").
 */
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, submitAction } from '../../../stores/checkout.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { messageFieldLabel } from '../../../domain/checkout/messages.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';
import { flowRules, messageAction } from '../../../domain/checkout/flows.ts';
import { StepForm, StepHeading, useContinue } from '../shared.tsx';

export default function MessageStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const stored = stepStateOf(state.stepState, 'message')?.message ?? '';
  const [message, setMessage] = useState(stored);
  useContinue({ enabled: true });
  const id = fieldDomId('payload.message');
  return (
    <StepForm onSubmit={() => void submitAction(messageAction(flowRules(state.flow)), { message })}>
      <StepHeading>{STEP_TITLES.message}</StepHeading>
      <div className="field">
        <label htmlFor={id}>{messageFieldLabel(bootstrap.educator!.name)}</label>
        <textarea id={id} rows={6} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
      </div>
    </StepForm>
  );
}
