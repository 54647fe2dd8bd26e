/**
 * The checkout's flows: one definition per flow of src/domain/checkout/flows.ts (the compiler refuses a flow without
 * one, or a definition whose rules are another flow's), and the registry the engine finds a checkout's flow in — by
 * its name (a checkout row's `flow`) or by its path slug (/checkout/initialise/{slug}). Adding a flow: its rules
 * there, its definition file here, listed below (docs/checkout-design.md). A flow the product does not sell (a
 * test's) is added with `registerFlow`: the engine and its routes then take it like any other.
 */
import { FLOW_RULES, type Flow } from '../../../src/domain/checkout/flows.ts';
import type { AnyFlowDefinition, FlowDefinition, StepDef } from '../definition.ts';
import { bookingFlow } from './booking.ts';
import { orderFlow } from './order.ts';
import { requestFlow } from './request.ts';
import { dateBookingRequestFlow, groupBookingRequestFlow } from './group-requests.ts';
import { bookingApplicationFlow } from './booking-application.ts';
import { membershipFlow } from './membership.ts';
import { giftVoucherFlow } from './gift-voucher.ts';

const FLOW_DEFINITIONS: { readonly [F in Flow]: FlowDefinition<(typeof FLOW_RULES)[F], F> } = {
  booking: bookingFlow,
  order: orderFlow,
  request: requestFlow,
  dateBookingRequest: dateBookingRequestFlow,
  groupBookingRequest: groupBookingRequestFlow,
  bookingApplication: bookingApplicationFlow,
  membership: membershipFlow,
  giftVoucher: giftVoucherFlow,
};

const byName = new Map<string, AnyFlowDefinition>();
const bySlug = new Map<string, AnyFlowDefinition>();
/** The names of the actions that have provider work to do before their transaction, in any flow. */
const preparingActions = new Set<string>();

/**
 * Adds a flow to the registry: the product's at start, a test's before its server takes checkouts. Its name and its
 * path slug must be free.
 */
export function registerFlow(definition: AnyFlowDefinition): void {
  if (byName.has(definition.flow) || bySlug.has(definition.rules.pathSlug)) {
    throw new Error(`a checkout flow named ${definition.flow} or at /${definition.rules.pathSlug} is registered already`);
  }
  byName.set(definition.flow, definition);
  bySlug.set(definition.rules.pathSlug, definition);
  const steps: ReadonlyArray<StepDef | undefined> = Object.values(definition.steps);
  for (const step of steps) {
    for (const [name, action] of Object.entries(step?.actions ?? {})) if (action.prepares) preparingActions.add(name);
  }
}

for (const flow of Object.keys(FLOW_RULES) as Flow[]) registerFlow(FLOW_DEFINITIONS[flow]);

/** The definition of a checkout's flow (its row's `flow`, written only from a registered definition). */
export function flowDefinition(flow: string): AnyFlowDefinition {
  const definition = byName.get(flow);
  if (!definition) throw new Error(`no checkout flow named ${flow}`);
  return definition;
}

/** The flow at /checkout/initialise/{slug} (and /checkout/preview/{slug}), or null. */
export function flowAtSlug(slug: string): AnyFlowDefinition | null {
  return bySlug.get(slug) ?? null;
}

export function actionPrepares(name: string): boolean {
  return preparingActions.has(name);
}
