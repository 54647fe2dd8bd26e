/**
 * Checkout problems that the shared catalogue (../problems) does not name: vouchers, sold-out spaces,
 * and a checkout that is not found. Same shape and errors host as every other problem.
 */
import { problemType, problems, type Problem, type ProblemProperty } from '../problems';

export const VOUCHER_PROBLEM_SLUG = 'checkout/invalid-voucher';
export const CHECKOUT_NOT_FOUND_SLUG = 'checkout/not-found';
export const HOLD_LAPSED_SLUG = 'checkout/hold-lapsed';

export const VOUCHER_MESSAGES = {
  unknown: 'This code does not exist.',
  expired: 'This code has expired.',
  usedUp: 'This code has been used the maximum number of times.',
  wrongCourse: 'This code is not valid for this course.',
  // A gift card is money on a card, not a promo code with a number of uses: its own words.
  giftExpired: 'This gift card has expired.',
  giftUsedUp: 'This gift card has no balance left.',
} as const;
export type VoucherFailure = keyof typeof VOUCHER_MESSAGES;

/** Spec 8 "Voucher": shown as "{title} {detail}", e.g. "Invalid Voucher This code has expired.". */
export function invalidVoucherProblem(reason: VoucherFailure): Problem {
  return { type: problemType(VOUCHER_PROBLEM_SLUG), title: 'Invalid Voucher', status: 400, detail: VOUCHER_MESSAGES[reason] };
}

/** The same failure as a validation property of a submitted payload (e.g. payload.appliedPromoCode). */
export function voucherProperty(reason: VoucherFailure, key = 'payload.appliedPromoCode'): ProblemProperty {
  const gift = reason === 'giftExpired' || reason === 'giftUsedUp';
  return { key, name: gift ? 'Gift card' : 'Promo code', message: VOUCHER_MESSAGES[reason] };
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

/** "30 minutes", "1 hour", "1 hour 30 minutes": how long a checkout may hold spaces, for the lapse message. */
export function holdCapText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [hours ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : '', rest || !hours ? `${rest} ${rest === 1 ? 'minute' : 'minutes'}` : ''];
  return parts.filter(Boolean).join(' ');
}

/**
 * A checkout held its spaces (and voucher use) for the longest time allowed: they went back to other learners and
 * the checkout is closed, so the learner starts again (409: the request was fine, the checkout's state forbids it).
 * `waitSeconds`: the learner's time on this date is used up (by this checkout or one before it), and other learners
 * have their turn for that long first.
 */
export function holdLapsedProblem(capSeconds: number, waitSeconds?: number): Problem {
  const again = waitSeconds && waitSeconds > 0
    ? `You can reserve them again in ${holdCapText(Math.max(60, waitSeconds))}.`
    : 'Please start your booking again.';
  return {
    type: problemType(HOLD_LAPSED_SLUG),
    title: 'Reservation Expired',
    status: 409,
    detail: `Your spaces were reserved for the longest time we allow (${holdCapText(capSeconds)}) and have been released for other learners. ${again}`,
  };
}
