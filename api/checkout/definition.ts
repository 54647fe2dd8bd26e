/**
 * The shapes a checkout flow is built from (docs/checkout-design.md), and the working context every step and flow
 * works with (`Ctx`). A flow is a definition: its rules (src/domain/checkout/flows.ts FlowRules, which the screen
 * reads too), one object per step they list, what it sells, what it holds, whether it needs Payment, and the outcome
 * it records. A step is an object that knows whether it applies, whether it is complete, and the actions it accepts —
 * each with its payload schema and what it does. The engine (api/checkout/engine/) only looks things up: the
 * compiler refuses a flow without a definition, a definition without an object for one of its steps, and a flow
 * without an outcome.
 */
import type { z } from 'zod';
import type { Deps } from '../deps.ts';
import type { Dialect } from '../../db/client.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import type { BookingRow, CheckoutRow, OrderRow, SpaceHoldRow } from '../../db/schema/checkout.ts';
import type { AddOnRow, CatalogueStamp, CheckoutCatalogue, OccurrenceCatalogue, OfferRow, Q } from '../../db/queries/checkout.ts';
import type { FlowRules, RuleStepId } from '../../src/domain/checkout/flows.ts';
import type { StepId } from '../../src/domain/checkout/steps.ts';
import type { CheckoutOutcome, OutcomeKind } from '../../src/domain/checkout/state.ts';
import type { AddOnSelection, SelectedOffer, StepDefaults } from '../../src/domain/checkout/step-state.ts';
import type { OutcomeColumns, PaymentState } from '../../db/schema/checkout.ts';
import type { Occurrence } from '../../db/schema.ts';
import type { StoredLines } from '../../db/queries/bookings.ts';
import { parseWith } from '../http/parse.ts';
import type { ProviderPayment } from '../payments/types.ts';
import type { MemberBenefits } from '../memberships/service.ts';

/**
 * What one checkout action works with: the checkout row (a working copy), its flow's definition, the catalogue it
 * refers to, its occurrence, the signed-in user, and what the action has read or queued so far.
 */
export interface Ctx {
  deps: Deps;
  q: Q;
  dialect: Dialect;
  now: number;
  user: SessionUser | null;
  row: CheckoutRow;
  /** Its flow's definition: everything the engine and the steps ask about the flow (its `rules` included). */
  def: AnyFlowDefinition;
  cat: CheckoutCatalogue;
  occ: OccurrenceCatalogue | null;
  /** The version of the catalogue read with the checkout row (api/checkout/catalogue-cache.ts). */
  stamp?: CatalogueStamp;
  /** Work to do after the transaction commits (cancel a provider payment, send mail…). */
  after: Array<() => Promise<void>>;
  /**
   * Statements that lock a row every checkout of the educator needs (the invoice counter), run as the last of the
   * transaction, after the checkout row is saved: the lock is then held for those statements and the commit only.
   */
  lastly?: Array<() => Promise<void>>;
  /**
   * Guarded statements whose answer decides only whether the transaction may commit (the hold's commit): sent
   * without waiting, so they go out with the statements after them, and awaited when the row is saved, where a
   * failure throws and the transaction rolls back.
   */
  pending?: Array<Promise<void>>;
  /** The learner's membership benefits for this course (undefined: not read yet in this action). */
  member?: MemberBenefits | null;
  /** The checkout's hold as the action's transaction left it (null: none; undefined: not known, to be read). */
  hold?: SpaceHoldRow | null;
  /**
   * The booking or order this action recorded, as its insert returned it: the confirmation is made from it after
   * the commit, with no read of its own (nothing else in the transaction changes the row).
   */
  recorded?: BookingRow | OrderRow;
  /** Vouchers read during this action (they change only through holds, which do not alter the discount). */
  vouchers?: Map<string, (VoucherLike & { id: string }) | null>;
}


/** The selection the cost summary, the hold and the outcome are made of. */
export interface Selection {
  offers: SelectedOffer[];
  addOns: AddOnSelection[];
  extras: { label: string; cost: number; quantity: number }[];
  spaces: number;
  voucherId: string | null;
  /** A gift card paying part of the total (api/gifts/cards.ts). */
  giftCardId?: string | null;
}

export interface VoucherLike {
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
}


/** What an action asks the engine to do next: move to the following step, or stay (a step may complete the checkout itself). */
export type ActionResult = 'advance' | 'stay';
export const ADVANCE = 'advance' as const;
export const STAY = 'stay' as const;

/** Provider work an action needs before its transaction: network calls never run inside one. */
export interface Prepared {
  payment?: ProviderPayment;
  /** The provider's registered name (api/payments/registry.ts). */
  provider?: string;
  /** A payment that succeeded: give the money back if the action cannot complete. */
  refundOnFailure?: boolean;
}

/** An action with its payload parsed: ready to prepare (outside the transaction) and run (inside it). */
export interface BoundAction {
  /** `rules`: the checkout's flow's (a membership's payment is saved for its renewals). */
  prepare(deps: Deps, row: CheckoutRow, rules: FlowRules): Promise<Prepared>;
  run(ctx: Ctx, prepared: Prepared): Promise<ActionResult>;
  /** Repeated after the checkout completed, it answers with the state (a payment is confirmed by browser and webhook). */
  readonly repeatable: boolean;
}

export interface ActionDef {
  /** Parses the payload with the action's schema (a bad one is the spec's validation problem). */
  bind(rawPayload: unknown): BoundAction;
  /** It has provider work to do before its transaction (BoundAction.prepare does more than nothing). */
  readonly prepares: boolean;
}

/**
 * One action of spec 4 "Checkout actions": its payload schema and what it does. The handler receives the payload
 * exactly as the schema parsed it, so no action can be dispatched with another's payload.
 */
export function action<S extends z.ZodType>(def: {
  payload: S;
  prepare?: (deps: Deps, row: CheckoutRow, payload: z.output<S>, rules: FlowRules) => Promise<Prepared>;
  handle: (ctx: Ctx, payload: z.output<S>, prepared: Prepared) => Promise<ActionResult> | ActionResult;
  repeatable?: boolean;
}): ActionDef {
  return {
    prepares: def.prepare !== undefined,
    bind(rawPayload) {
      const payload: z.output<S> = parseWith(def.payload, rawPayload ?? {}, 'payload');
      return {
        prepare: async (deps, row, rules) => (def.prepare ? def.prepare(deps, row, payload, rules) : {}),
        run: async (ctx, prepared) => def.handle(ctx, payload, prepared),
        repeatable: def.repeatable ?? false,
      };
    },
  };
}

/** One step of spec 2.14: an object that decides whether it applies and whether it is complete, and what it accepts. */
export interface StepDef<I extends StepId = StepId> {
  readonly id: I;
  /** Whether the step is part of this checkout now (absent: always). */
  applies?(ctx: Ctx): boolean | Promise<boolean>;
  /** Whether the learner has done it (its stepState entry is written). */
  isComplete(ctx: Ctx): boolean;
  /** The actions it accepts, by their spec 4 names. */
  readonly actions: Readonly<Record<string, ActionDef>>;
  /** Arriving at the step going forwards (Payment fixes the total and takes the hold). */
  enter?(ctx: Ctx): Promise<void>;
  /** Leaving it with "go back" (Payment gives the hold and the provider payment back). */
  leave?(ctx: Ctx): Promise<void>;
}

export function defineStep<I extends StepId>(step: StepDef<I>): StepDef<I> {
  return step;
}

/** What the checkout holds while the learner pays: spaces off an occurrence and one use of a voucher. */
export interface HoldNeeds {
  occurrenceId: string | null;
  spaces: number;
  voucherId: string | null;
}

/** How an outcome was paid, as the Payment step (or a free flow) records it. */
export interface CompletionPayment {
  method: string | null;
  state: PaymentState;
  paymentId?: string | null;
  invoiceDetails?: Record<string, unknown> | null;
  dueDate?: number | null;
  manualNote?: string | null;
}

/**
 * The columns every outcome record shares, as complete() fills them for the flow's outcome (its own id and details
 * aside). `course_id` is null for a flow that sells from the educator; a course's outcome spreads `courseBase(base)`.
 */
export type OutcomeBase = Omit<OutcomeColumns, 'id' | 'details' | 'lines' | 'currency' | 'course_id'> & {
  course_id: string | null; lines: StoredLines & Record<string, unknown>; currency: string;
};

/** What an outcome is, for the checkout row, the confirmation screen and the e-mails (one list, in the state contract). */
export type { OutcomeKind };
export interface OutcomeRef {
  kind: OutcomeKind;
  id: string;
  /** It has an invoice or receipt (a paid booking or order), numbered in the same transaction. */
  documents: boolean;
  /** The booking's or order's row as its insert returned it (its e-mails are written from it). */
  row?: BookingRow | OrderRow;
}

/**
 * A flow: its rules (the pure ones the screen reads too, src/domain/checkout/flows.ts FlowRules) and its server
 * side. `steps` must hold exactly the steps its rules list, each under its own id; the rest are what the engine
 * asks the flow instead of testing the flow's name. `N`: its name (stored as checkouts.flow); `R`: its rules.
 */
export interface FlowDefinition<R extends FlowRules = FlowRules, N extends string = string> {
  readonly flow: N;
  /** Its steps, path slug, course types, payment methods, spaces pool, action names, confirmation… */
  readonly rules: R;
  /** Spec 2.14 "Step rules": whether the Payment step applies (required of flows that list it, see PaymentRule). */
  paymentRequired?(ctx: Ctx): Promise<boolean>;
  readonly steps: { readonly [S in RuleStepId<R>]: StepDef<S> };
  /** Offers and add-ons on sale in this checkout (a dated flow's are its occurrence's). */
  catalogue(ctx: Ctx): { offers: OfferRow[]; addOns: AddOnRow[] };
  /** What the learner has chosen so far, for the cost summary, the hold and the outcome (null before any choice). */
  selection(ctx: Ctx): Selection | null;
  /** What to hold while paying (nothing: no hold). */
  holds(ctx: Ctx): HoldNeeds;
  /** Spec 4 "Defaults when no selection has been stored", for the screen to start from. */
  defaults(ctx: Ctx): StepDefaults;
  /** Rules of the checkout as it stands that the screen reads from the state (request: calendar-based, instant booking). */
  stateRules?(ctx: Ctx): { calendarBased: boolean; instantBooking: boolean };
  /**
   * Runs once before the new checkout is written (e.g. pick the occurrence the page sent): it reads and decides; its
   * row is inserted afterwards with what it chose, so it writes nothing that refers to the checkout. `occurrence`:
   * the row of `occurrenceId`, read with the course (null: the course has none of that id; undefined: not read).
   */
  initialise?(ctx: Ctx, input: { occurrenceId?: string | null; occurrence?: Occurrence | null }): Promise<void>;
  /**
   * Records the flow's outcome inside the completing transaction; returns what it recorded. The e-mails of the four
   * course outcomes are sent by complete(); any other kind queues its own on `ctx.after`.
   */
  outcome(ctx: Ctx, pay: CompletionPayment, base: OutcomeBase): Promise<OutcomeRef>;
  /**
   * The confirmation screen's view of an outcome of a kind the engine does not read itself (anything but booking,
   * order, request, application). Required of flows that record such kinds (the engine answers no outcome without it).
   */
  describeOutcome?(ctx: Ctx, outcome: { kind: OutcomeKind; id: string }, title: string): Promise<CheckoutOutcome | null>;
  /**
   * Whether the educator's VAT applies to what the flow sells (absent: it does). A multi-purpose voucher is taxed
   * when it is spent, not when it is sold (HMRC VAT Notice 700/7).
   */
  readonly vat?: boolean;
}

/** Any flow's definition, as the engine and the steps see it: its steps by id, whichever it lists. */
export type AnyFlowDefinition = Omit<FlowDefinition, 'steps'> & { readonly steps: Readonly<Partial<Record<StepId, StepDef>>> };

/** Spec 2.14 "Step rules": a flow that lists Payment must say when it applies (the compiler asks for it). */
export type PaymentRule<R extends FlowRules> = 'payment' extends RuleStepId<R> ? { paymentRequired(ctx: Ctx): Promise<boolean> } : { paymentRequired?: undefined };

/** A flow's definition, checked: one step object per step its rules list, and a Payment rule when it lists Payment. */
export function defineFlow<const R extends FlowRules, const N extends string>(
  definition: FlowDefinition<R, N> & PaymentRule<R>,
): FlowDefinition<R, N> & PaymentRule<R> {
  return definition;
}
