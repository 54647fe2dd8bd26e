/**
 * The problem-details catalogue (spec 8). Every error the product raises is a
 * {@link Problem}; code throws it wrapped in a {@link ProblemError}.
 */
import { titleCase } from './text.ts';
import {
  ERRORS_HOST_DEFAULT, INVALID_CURRENCY_SLUG, ProblemError, invalidCurrencyProblem, problemMessage, problemType,
  type Problem, type ProblemProperty,
} from './problem-error.ts';

// The shape, the Error and the pence problem live in problem-error.ts (one copy, re-exported here).
export {
  ERRORS_HOST_DEFAULT, INVALID_CURRENCY_SLUG, ProblemError, invalidCurrencyProblem, problemMessage, problemType,
  type Problem, type ProblemProperty,
};

/** Problem type slugs, relative to the errors host (spec 8 "Known problem types"). */
export const PROBLEM_SLUGS = {
  awSnap: 'generic/aw-snap',
  validation: 'generic/validation-error',
  invalidCurrency: INVALID_CURRENCY_SLUG,
  invalidEmail: 'generic/invalid-email-address',
  invalidPhone: 'generic/invalid-phone-number',
  invalidEpoch: 'generic/invalid-epoch',
  notFound: 'generic/not-found',
  unknownError: '/unknown-error',
  unauthorisedCheckout: 'checkout/unauthorised',
  checkoutSubmission: 'checkout/submit-response',
  invalidCourseType: 'checkout/invalid-course-type',
  unknownUser: 'checkout/unknown-user',
  noDeliveryOptions: 'checkout/no-delivery-options',
  cardPayment: 'checkout/card-payment-error',
  walletPayment: 'checkout/wallet-payment-error',
  captchaFailedToGenerate: 'captcha/failed-to-generate',
  invalidEducatorId: 'analytics/invalid-educator-id',
  invalidLinkType: 'analytics/invalid-educator-link-type',
  serviceBusy: 'generic/service-busy',
} as const;

export type ProblemSlug = (typeof PROBLEM_SLUGS)[keyof typeof PROBLEM_SLUGS];

/** True when `problem.type` is the given slug under any errors host (or the bare slug). */
export function isProblemOfType(problem: Pick<Problem, 'type'> | null | undefined, slug: string): boolean {
  if (!problem || typeof problem.type !== 'string') return false;
  const bare = slug.replace(/^\/+/, '');
  return problem.type === slug || problem.type === bare || problem.type.endsWith(`/${bare}`);
}

/**
 * Spec 8: a validation property's label is its name, or the title-cased last
 * segment of its key ('payload.bookerFormResponse.first_name' → 'First Name').
 */
export function propertyLabel(property: ProblemProperty): string {
  if (property.name) return property.name;
  const segments = property.key.split('.');
  return titleCase(segments[segments.length - 1] ?? property.key);
}

/**
 * Spec 8: the default validation detail, '{label} {message}' for each property.
 * Several properties are joined with ', '; no properties → no detail.
 */
export function validationDetail(properties: ReadonlyArray<ProblemProperty>): string | undefined {
  if (properties.length === 0) return undefined;
  return properties.map((property) => `${propertyLabel(property)} ${property.message}`).join(', ');
}

/** Spec 8 "Card provider": the error shape a card provider returns. */
export interface CardProviderError {
  type?: string;
  code?: string;
  message?: string;
}

/** Spec 8 "Wallet provider" failure kinds. */
export type WalletFailureKind = 'payment_failed' | 'capture_error' | 'sdk_error';

export const CARD_DETAILS_MESSAGE = 'There was an error with your card details. Please try again.';
export const PAYMENT_AUTH_FAILED_MESSAGE = 'There was an error with your payment. Please try again.';
export const PAYMENT_PROCESSING_MESSAGE = 'An error occurred while processing your payment. Please try again.';
export const WALLET_PAYMENT_FAILED_MESSAGE = 'Payment could not be completed. Please try again.';
export const UNKNOWN_ERROR_DETAIL = 'An unknown error occurred, please try again or contact support';
export const CHECKOUT_SUBMISSION_TITLE =
  'There was an issue submitting your response, check if there are any required fields that you have missed';
export const CHECKOUT_SUBMISSION_DETAIL = 'If the problem persists, please contact support.';
export const NOT_FOUND_TITLE = '404 - Not found';

/** Spec 8: the sdk_error message with the provider's name. */
export function walletSdkMessage(providerName: string): string {
  return `An error occurred with ${providerName}. Please try again or use a different payment method.`;
}

/**
 * Builds the catalogue for one errors host. `problems` (below) uses the default
 * host; the API builds its own with its configured host.
 */
export function createProblems(errorsHost: string = ERRORS_HOST_DEFAULT) {
  const make = (slug: string, title: string, status: number, detail?: string, extra: Partial<Problem> = {}): Problem => {
    const problem: Problem = { type: problemType(slug, errorsHost), title, status, ...extra };
    if (detail !== undefined) problem.detail = detail;
    return problem;
  };

  return {
    errorsHost,
    /** generic/aw-snap, 'Something Went Wrong', 500. */
    awSnap: (detail?: string) => make(PROBLEM_SLUGS.awSnap, 'Something Went Wrong', 500, detail),
    /** generic/validation-error, 'Validation Error', 400, with properties and the default detail. */
    validation: (properties: ProblemProperty[], detail?: string) =>
      make(PROBLEM_SLUGS.validation, 'Validation Error', 400, detail ?? validationDetail(properties), { properties }),
    /** generic/invalid-currency, 'Invalid Currency', 400. */
    invalidCurrency: (detail?: string) => invalidCurrencyProblem(detail, errorsHost),
    /** generic/invalid-email-address, 'Invalid Email Address', 400. */
    invalidEmail: (detail?: string) => make(PROBLEM_SLUGS.invalidEmail, 'Invalid Email Address', 400, detail),
    /** generic/invalid-phone-number, 'Invalid Phone Number', 400. */
    invalidPhone: (detail?: string) => make(PROBLEM_SLUGS.invalidPhone, 'Invalid Phone Number', 400, detail),
    /** generic/invalid-epoch, 'Invalid Epoch', 400. */
    invalidEpoch: (detail?: string) => make(PROBLEM_SLUGS.invalidEpoch, 'Invalid Epoch', 400, detail),
    /** /unknown-error, 'Unknown error', 500 (or the given status), fixed detail. */
    unknownError: (status: number = 500) => make(PROBLEM_SLUGS.unknownError, 'Unknown error', status, UNKNOWN_ERROR_DETAIL),
    /** checkout/unauthorised: title and status are not in the spec; chosen 'Unauthorised', 403. */
    unauthorisedCheckout: (detail?: string) => make(PROBLEM_SLUGS.unauthorisedCheckout, 'Unauthorised', 403, detail),
    /** captcha/failed-to-generate, 500. */
    captchaFailedToGenerate: () =>
      make(
        PROBLEM_SLUGS.captchaFailedToGenerate,
        'Failed to generate captcha token',
        500,
        'We were unable to generate a captcha token for this submission',
      ),
    /** analytics/invalid-educator-id, 'Invalid Educator ID', 400. */
    invalidEducatorId: (detail?: string) => make(PROBLEM_SLUGS.invalidEducatorId, 'Invalid Educator ID', 400, detail),
    /** analytics/invalid-educator-link-type, 'Invalid Link Type', 400. */
    invalidLinkType: (detail?: string) => make(PROBLEM_SLUGS.invalidLinkType, 'Invalid Link Type', 400, detail),
    /**
     * generic/service-busy, 'Service Busy', 503 with `retryAfter` (seconds; also the Retry-After header): the database
     * stayed locked longer than a request waits. Not in the spec; a temporary condition the client may retry.
     */
    serviceBusy: (retryAfter: number) =>
      make(PROBLEM_SLUGS.serviceBusy, 'Service Busy', 503, `The service is busy. Please try again in ${retryAfter} seconds.`, { retryAfter }),
    /** Spec 8 "Submission fallback" (checkout/submit-response), 400. */
    checkoutSubmission: () =>
      make(PROBLEM_SLUGS.checkoutSubmission, CHECKOUT_SUBMISSION_TITLE, 400, CHECKOUT_SUBMISSION_DETAIL),
    /** Spec 8: flow / course-type mismatch; `detail` is one of the two exact messages (see checkout/flows). */
    invalidCourseType: (detail: string) => make(PROBLEM_SLUGS.invalidCourseType, 'Invalid Course Type', 400, detail),
    /** Spec 8: "Unknown user", contact details submitted without a logged-in id. */
    unknownUser: () => make(PROBLEM_SLUGS.unknownUser, 'Unknown user', 401),
    /** Spec 8: "No delivery options available". */
    noDeliveryOptions: () => make(PROBLEM_SLUGS.noDeliveryOptions, 'No delivery options available', 400),
    /** Spec 8 "Public page errors": "404 - Not found". */
    notFound: (detail?: string) => make(PROBLEM_SLUGS.notFound, NOT_FOUND_TITLE, 404, detail),
    /** Spec 8 "Card provider": maps a provider error to status and message. */
    cardProvider: (error: CardProviderError | null | undefined): Problem => {
      if (error?.type === 'card_error' || error?.type === 'validation_error') {
        return make(PROBLEM_SLUGS.cardPayment, 'Payment Error', 400, error.message || CARD_DETAILS_MESSAGE);
      }
      if (error?.type === 'invalid_request_error' && error.code === 'payment_intent_authentication_failure') {
        return make(PROBLEM_SLUGS.cardPayment, 'Payment Error', 500, PAYMENT_AUTH_FAILED_MESSAGE);
      }
      return make(PROBLEM_SLUGS.cardPayment, 'Payment Error', 500, PAYMENT_PROCESSING_MESSAGE);
    },
    /** Spec 8: a failed card-provider redirect, 500. */
    cardRedirectFailed: () => make(PROBLEM_SLUGS.cardPayment, 'Payment Error', 500, PAYMENT_PROCESSING_MESSAGE),
    /** Spec 8 "Wallet provider": payment_failed 400, capture_error 500, sdk_error 500 naming the provider. */
    walletProvider: (kind: WalletFailureKind, providerName: string): Problem => {
      switch (kind) {
        case 'payment_failed':
          return make(PROBLEM_SLUGS.walletPayment, 'Payment Error', 400, WALLET_PAYMENT_FAILED_MESSAGE);
        case 'capture_error':
          return make(PROBLEM_SLUGS.walletPayment, 'Payment Error', 500, PAYMENT_PROCESSING_MESSAGE);
        case 'sdk_error':
          return make(PROBLEM_SLUGS.walletPayment, 'Payment Error', 500, walletSdkMessage(providerName));
      }
    },
  };
}

export type ProblemCatalogue = ReturnType<typeof createProblems>;

/** The catalogue under {@link ERRORS_HOST_DEFAULT}. */
export const problems: ProblemCatalogue = createProblems();

/** Spec 8 "Card provider" mapping with the default errors host. */
export function cardProviderProblem(error: CardProviderError | null | undefined): Problem {
  return problems.cardProvider(error);
}

/** Spec 8 "Wallet provider" mapping with the default errors host. */
export function walletProviderProblem(kind: WalletFailureKind, providerName: string): Problem {
  return problems.walletProvider(kind, providerName);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValidStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

/**
 * Spec 8 "General handling": turns an error response body into a Problem.
 * - A problem-details / JSON error body with a string `type` (or `code`) and
 *   `title` keeps its fields; its own `status` wins over the HTTP status.
 * - A body with a 'safe' string or array becomes the unknown error, with the
 *   body's `statusCode` or 500 (the safe value is kept as the `safe` extension).
 * - A non-empty text body becomes the unknown error with that text as detail
 *   ("the raw response text is the message"); anything else is the plain
 *   unknown error with the HTTP status (500 when that is not an error status).
 */
export function problemFromBody(body: unknown, status: number, catalogue: ProblemCatalogue = problems): Problem {
  if (isRecord(body)) {
    const type = typeof body.type === 'string' ? body.type : typeof body.code === 'string' ? body.code : undefined;
    if (type !== undefined && typeof body.title === 'string') {
      const { type: _type, code: _code, status: bodyStatus, ...rest } = body;
      return {
        ...rest,
        type,
        title: body.title,
        status: isValidStatus(bodyStatus) ? bodyStatus : status,
      } as Problem;
    }
    if (typeof body.safe === 'string' || Array.isArray(body.safe)) {
      const problem = catalogue.unknownError(isValidStatus(body.statusCode) ? body.statusCode : 500);
      return { ...problem, safe: body.safe };
    }
  }
  const fallbackStatus = isValidStatus(status) && status >= 400 ? status : 500;
  if (typeof body === 'string' && body.trim().length > 0) {
    return { ...catalogue.unknownError(fallbackStatus), detail: body };
  }
  return catalogue.unknownError(fallbackStatus);
}
