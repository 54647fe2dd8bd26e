/**
 * Checkout problems that the shared catalogue (../problems) does not name: vouchers, sold-out spaces,
 * and a checkout that is not found. Same shape and errors host as every other problem.
 */
import { problemType, problems, type Problem, type ProblemProperty } from '../problems';

export const VOUCHER_PROBLEM_SLUG = 'checkout/invalid-voucher';
export const CHECKOUT_NOT_FOUND_SLUG = 'checkout/not-found';

export const VOUCHER_MESSAGES = {
  unknown: 'This code does not exist.',
  expired: 'This code has expired.',
  usedUp: 'This code has been used the maximum number of times.',
  wrongCourse: 'This code is not valid for this course.',
} as const;
export type VoucherFailure = keyof typeof VOUCHER_MESSAGES;

/** Spec 8 "Voucher": shown as "{title} {detail}", e.g. "Invalid Voucher This code has expired.". */
export function invalidVoucherProblem(reason: VoucherFailure): Problem {
  return { type: problemType(VOUCHER_PROBLEM_SLUG), title: 'Invalid Voucher', status: 400, detail: VOUCHER_MESSAGES[reason] };
}

/** The same failure as a validation property of a submitted payload (e.g. payload.appliedPromoCode). */
export function voucherProperty(reason: VoucherFailure, key = 'payload.appliedPromoCode'): ProblemProperty {
  return { key, name: 'Promo code', message: VOUCHER_MESSAGES[reason] };
}

/** Spaces asked for are more than the pool (spec 5 "Offer quantity"); `available` may be 0 (sold out). */
export function spacesMessage(available: number): string {
  return available <= 0 ? 'are sold out' : `must not exceed the ${available} available ${available === 1 ? 'space' : 'spaces'}`;
}

export function soldOutProblem(available: number, key = 'payload.selectedOffers'): Problem {
  return problems.validation([{ key, name: 'Spaces', message: spacesMessage(available) }]);
}

export function checkoutNotFoundProblem(): Problem {
  return { type: problemType(CHECKOUT_NOT_FOUND_SLUG), title: '404 - Not found', status: 404, detail: 'No such checkout' };
}
