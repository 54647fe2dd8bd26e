/**
 * Payment methods per flow (spec 3 "Payment options", 4 "Which payment methods each flow shows", 7).
 */
import { FLOW_RULES, type Flow, type FlowRules } from './flows.ts';
import { DEFAULT_MANUAL_PAYMENT_LABEL, DEFAULT_MANUAL_PAYMENT_MESSAGE } from './constants.ts';
import type { PaymentMethod } from './names.ts';

export type { PaymentMethod };

export const PAYMENT_METHODS = ['card', 'paypal', 'klarna', 'invoice', 'manual'] as const satisfies readonly PaymentMethod[];

/** What the browser needs to load the widget of the provider that takes a method (never a secret). */
export type PublicProviderConfig =
  | { provider: 'stripe'; publishableKey: string }
  | { provider: 'paypal'; clientId: string; currency: string }
  | { provider: 'test' }
  | { provider: 'test-wallet' };

/** Per provider method that is offered; a method missing here has no provider (live mode without its keys). */
export type PublicPaymentConfig = Partial<Record<Extract<PaymentMethod, 'card' | 'paypal' | 'klarna'>, PublicProviderConfig>>;

export interface PaymentOptions {
  card?: { enabled?: boolean | null } | null;
  paypal?: { enabled?: boolean | null } | null;
  klarna?: { enabled?: boolean | null } | null;
  invoice?: { enabled?: boolean | null } | null;
  manual?: { enabled?: boolean | null; label?: string | null; message?: string | null } | null;
}

/** Spec 7: when the payment-options answer is missing, only card is enabled. */
export const DEFAULT_PAYMENT_OPTIONS: Readonly<PaymentOptions> = {
  card: { enabled: true },
  paypal: { enabled: false },
  klarna: { enabled: false },
  invoice: { enabled: false },
  manual: { enabled: false },
};

/** Spec 7: the payment options to use (the default card-only set when the answer is missing). */
export function resolvePaymentOptions(options: PaymentOptions | null | undefined): PaymentOptions {
  return options ?? DEFAULT_PAYMENT_OPTIONS;
}

/** Spec 4 "Which payment methods each flow shows", from the flow's rules (flows.ts). */
export function methodAllowedInFlow(method: PaymentMethod, flow: Flow): boolean {
  return (FLOW_RULES[flow].paymentMethods as readonly PaymentMethod[]).includes(method);
}

/** Spec 2.14 / 4: the enabled methods the flow shows, in the order card, wallet, pay-later, invoice, in-person. */
export function visiblePaymentMethods(flow: Flow, options: PaymentOptions | null | undefined): PaymentMethod[] {
  return paymentMethodsShown(FLOW_RULES[flow], options);
}

/** The same, of a flow's rules. */
export function paymentMethodsShown(rules: Pick<FlowRules, 'paymentMethods'>, options: PaymentOptions | null | undefined): PaymentMethod[] {
  const resolved = resolvePaymentOptions(options);
  return PAYMENT_METHODS.filter((method) => !!resolved[method]?.enabled && rules.paymentMethods.includes(method));
}

/** Spec 2.14: the radio label of a method (provider names are passed in; the spec does not name them). */
export function paymentMethodLabel(
  method: PaymentMethod,
  options: PaymentOptions | null | undefined,
  providerNames: { card?: string; paypal?: string; klarna?: string } = {},
): string {
  switch (method) {
    case 'card':
      return providerNames.card ?? 'Card';
    case 'paypal':
      return providerNames.paypal ?? 'PayPal';
    case 'klarna':
      return providerNames.klarna ?? 'Klarna';
    case 'invoice':
      return 'Invoice';
    case 'manual':
      return options?.manual?.label?.trim() || DEFAULT_MANUAL_PAYMENT_LABEL;
  }
}

/** Spec 2.14: the in-person message, or "Pay the organizer on the day.". */
export function manualPaymentMessage(options: PaymentOptions | null | undefined): string {
  return options?.manual?.message?.trim() || DEFAULT_MANUAL_PAYMENT_MESSAGE;
}

/**
 * Said when no method is left to pay with: "for this course" only where there is one (a gift voucher or a
 * membership is sold by the educator, not for a course).
 */
export function noPaymentMethodMessage(educatorName: string | null | undefined, hasCourse: boolean): string {
  const contact = educatorName ? ` Please contact ${educatorName}.` : '';
  return `No payment method is available${hasCourse ? ' for this course' : ''}.${contact}`;
}
