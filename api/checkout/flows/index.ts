/**
 * Every flow's definition, one per flow of src/domain/checkout/flows.ts: the compiler refuses a flow without one.
 * Adding a flow: its rules there, its definition file here, listed below (docs/checkout-design.md).
 */
import type { Flow } from '../../../src/domain/checkout/flows.ts';
import type { AnyFlowDefinition } from '../context.ts';
import type { FlowDefinition, StepDef } from '../definition.ts';
import { bookingFlow } from './booking.ts';
import { orderFlow } from './order.ts';
import { requestFlow } from './request.ts';
import { dateBookingRequestFlow, groupBookingRequestFlow } from './group-requests.ts';
import { bookingApplicationFlow } from './booking-application.ts';
import { membershipFlow } from './membership.ts';
import { giftVoucherFlow } from './gift-voucher.ts';

const FLOW_DEFINITIONS: { readonly [F in Flow]: FlowDefinition<F> } = {
  booking: bookingFlow,
  order: orderFlow,
  request: requestFlow,
  dateBookingRequest: dateBookingRequestFlow,
  groupBookingRequest: groupBookingRequestFlow,
  bookingApplication: bookingApplicationFlow,
  membership: membershipFlow,
  giftVoucher: giftVoucherFlow,
};

export function flowDefinition(flow: Flow): AnyFlowDefinition {
  return FLOW_DEFINITIONS[flow];
}

/** The names of the actions that have provider work to do before their transaction, in any flow. */
const PREPARING_ACTIONS: ReadonlySet<string> = new Set(
  Object.values(FLOW_DEFINITIONS).flatMap((def) => Object.values(def.steps as Record<string, StepDef | undefined>)
    .flatMap((step) => (step ? Object.entries(step.actions).filter(([, a]) => a.prepares).map(([name]) => name) : []))),
);

export function actionPrepares(name: string): boolean {
  return PREPARING_ACTIONS.has(name);
}
