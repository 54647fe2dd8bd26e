/**
 * Checkout constants (spec 1 "Platform terms", 2.14, 9 "Checkout").
 */

/** Spec 2.14 / 9: occurrences per page in the Date step. */
export const DATE_STEP_PAGE_SIZE = 10;
/** Spec 5 / 9: preferred date choices, at most 3 and at least 1. */
export const MAX_PREFERRED_DATES = 3;
export const MIN_PREFERRED_DATES = 1;
/** Spec 2.14: the preferred date inputs. */
export const PREFERRED_DATE_LABELS = ['First choice', 'Second choice', 'Third choice'] as const;

/** Spec 1 / 9: the figures stated by the platform terms. */
export const PLATFORM_TERMS = {
  minimumAge: 18,
  disputeWindowDays: 30,
  changeNoticeDays: 30,
  supportReplyHours: 24,
  uptimePercent: 99.99,
} as const;

/** Spec 8 "Voucher". */
export const VOUCHER_SUCCESS_TEXT = 'Voucher applied successfully!';
export const VOUCHER_APPLYING_TEXT = 'Applying...';
export const APPLY_PROMO_TEXT = 'Apply promo code or gift card';

/** Spec 8 "Availability fetch": the text after the error's detail or title. */
export const AVAILABILITY_ERROR_SUFFIX =
  "It looks like we're having problems checking the availability on this course, you can try refreshing the page, trying again later or let us know which dates work for you and we'll get back to you to book you in.";

/** Spec 2.14 texts. */
export const UNKNOWN_STEP_TEXT = 'Unknown step';
export const ADD_ONE_TO_BASKET = 'Add one to basket';
export const REMOVE_ONE_FROM_BASKET = 'Remove one from basket';
export const TERMS_CHECKBOX_LABEL = 'I accept the Terms and Privacy Policy *';
export const SYSTEM_EMAIL_LOCKED_DESCRIPTION = 'You cannot edit this email address.';
export const PAY_BY_INVOICE = 'Pay by Invoice';
export const CONFIRM_PAYMENT = 'Confirm Payment';
export const DEFAULT_MANUAL_PAYMENT_LABEL = 'In-person Payment';
export const DEFAULT_MANUAL_PAYMENT_MESSAGE = 'Pay the organizer on the day.';
export const BACK_TO_WEBSITE = 'Back to Website';
