/**
 * The membership flow's Plan step: the educator's plans as radio cards, the one chosen on the memberships page
 * (?plan=) or already picked selected; Continue sends "membership plan picked".
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, submitAction } from '../../../stores/checkout.ts';
import { STEP_TITLES } from '../../../domain/checkout/steps.ts';
import { checkoutApi } from '../api.ts';
import { StepForm, StepHeading, useContinue } from '../shared.tsx';

import type { MembershipPlanOption as PlanView } from '../api.ts';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';

export default function PlanStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const stored = stepStateOf(state.stepState, 'plan')?.planId ?? null;
  const [plans, setPlans] = useState<PlanView[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(stored);
  useEffect(() => {
    const wanted = new URL(window.location.href).searchParams.get('plan');
    void checkoutApi.membershipPlans(bootstrap.educator!.id)
      .then((body) => {
        setPlans(body.plans);
        setChosen((current) => current ?? (body.plans.some((p) => p.id === wanted) ? wanted : body.plans[0]?.id ?? null));
      })
      .catch(() => setPlans([]));
  }, [bootstrap.educator]);
  useContinue({ enabled: !!chosen });
  return (
    <StepForm onSubmit={() => chosen && void submitAction('membership plan picked', { planId: chosen })}>
      <StepHeading>{STEP_TITLES.plan}</StepHeading>
      {plans === null && <p>Loading plans…</p>}
      {plans !== null && plans.length === 0 && <p>{bootstrap.educator!.name} has no membership plans at the moment.</p>}
      <fieldset className="stack" style={{ border: 0, padding: 0 }}>
        <legend className="visually-hidden">Membership plans</legend>
        {plans?.map((plan) => (
          <label key={plan.id} className="panel" style={{ display: 'flex', gap: '0.75rem', alignItems: 'flex-start' }}>
            <input type="radio" name="plan" value={plan.id} checked={chosen === plan.id} onChange={() => setChosen(plan.id)} />
            <span className="stack" style={{ gap: '0.25rem' }}>
              <strong>{plan.name}</strong>
              <span>{plan.priceText}</span>
              {plan.benefits.map((b) => <span key={b} className="small">{b}</span>)}
            </span>
          </label>
        ))}
      </fieldset>
    </StepForm>
  );
}
