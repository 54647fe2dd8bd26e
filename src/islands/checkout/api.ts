/**
 * The checkout's calls (spec 7 "Checkout"), all under {api}/api with credentials (and, in an embed, the
 * learner's bearer token — third-party cookies are not relied on). A failed call throws a CheckoutProblem
 * holding the problem details (spec 8 "General handling": problem+json or JSON error body, else the text).
 */
import { apiUrl } from '../../lib/api.ts';
import { problemFromBody, problems, type Problem } from '../../domain/problems.ts';
import { FLOW_RULES, initialisePath, type Flow } from '../../domain/checkout/flows.ts';
import type { CheckoutState as AnyCheckoutState } from '../../domain/checkout/state.ts';
import type { CostSummaryRequest } from '../../domain/checkout/ui.ts';
import { authHeaders } from './identity.ts';
import type { CheckoutState, CostSummaryView, FormView, OccurrenceView, PaymentOptionsView } from './types.ts';

export class CheckoutProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = 'CheckoutProblem';
  }
}

/** Any thrown value as a problem (network failures are the unknown error). */
export function toProblem(error: unknown): Problem {
  if (error instanceof CheckoutProblem) return error.problem;
  return problems.unknownError();
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      credentials: 'include',
      cache: 'no-store',
      ...init,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...authHeaders(), ...(init.headers ?? {}) },
    });
  } catch {
    throw new CheckoutProblem(problems.unknownError());
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    let body: unknown = text;
    if (/json/.test(res.headers.get('content-type') ?? '')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    throw new CheckoutProblem(problemFromBody(body, res.status));
  }
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CheckoutProblem({ ...problems.unknownError(), detail: text });
  }
}

const post = <T>(path: string, body: unknown) => call<T>(path, { method: 'POST', body: JSON.stringify(body) });

/**
 * A checkout's state, at the screen's boundary. The server answers about any registered flow (`FlowName`); the
 * screen asks only about the checkout it opened, of the product flow its page named (the bootstrap takes only a
 * `Flow`, `isFlow`), so the answer is read as that flow's and the screen asks the flow's rules exhaustively.
 */
async function productState(answer: Promise<AnyCheckoutState>): Promise<CheckoutState> {
  return (await answer) as CheckoutState;
}

export interface InitialiseBody {
  checkoutId: string | null;
  /** A course flow's course; a flow that sells from the educator sends `educatorId` instead. */
  courseId?: string | null;
  educatorId?: string | null;
  occurrenceId?: string | null;
  origin: string;
  bookedOnURL: string;
  utms: Record<string, string>;
}

/** GET /api/educators/{id}/gift-vouchers: the amounts an educator's gift vouchers come in. */
export interface GiftVoucherOffer {
  vouchers_app_installed: boolean;
  fixedAmounts: number[];
  customMin: number | null;
  customMax: number | null;
  expiryMonths: number;
  designColour: string | null;
  currency: string;
  fees_absorbed?: boolean;
}

/** A membership plan as the Plan step lists it (GET /api/educators/{id}/membership-plans). */
export interface MembershipPlanOption { id: string; name: string; description: string; priceText: string; benefits: string[] }

export const checkoutApi = {
  giftVouchers: (educatorId: string) => call<GiftVoucherOffer>(`/educators/${encodeURIComponent(educatorId)}/gift-vouchers`),
  membershipPlans: (educatorId: string) => call<{ plans: MembershipPlanOption[] }>(`/educators/${encodeURIComponent(educatorId)}/membership-plans`),
  initialise: (flow: Flow, body: InitialiseBody) => productState(post<AnyCheckoutState>(initialisePath(flow), body)),
  /** The state a new checkout of a flow without a course would start in, written nowhere (`_id` empty). */
  preview: (flow: Flow, educatorId: string, origin: string) => productState(
    call<AnyCheckoutState>(`/checkout/preview/${FLOW_RULES[flow].pathSlug}?educatorId=${encodeURIComponent(educatorId)}&origin=${encodeURIComponent(origin)}`),
  ),
  get: (checkoutId: string) => productState(call<AnyCheckoutState>(`/checkout/${encodeURIComponent(checkoutId)}`)),
  /** The submit-response envelope: {action, payload}. */
  submit: (checkoutId: string, action: string, payload: object) =>
    productState(post<AnyCheckoutState>(`/checkout/${encodeURIComponent(checkoutId)}/submit-response`, { action, payload })),
  form: (formId: string) => call<FormView>(`/forms/${encodeURIComponent(formId)}/view`),
  studentMetadata: (formId: string) => call<{ values?: Record<string, unknown> } & Record<string, unknown>>(`/student_metadata/form/${encodeURIComponent(formId)}`),
  costSummary: (body: CostSummaryRequest) => post<CostSummaryView & { pricing_hidden?: boolean }>('/custom/get-checkout-summary', body),
  paymentOptions: (courseId: string | null, educatorId: string) =>
    call<PaymentOptionsView>(`/checkout/payment-options?${courseId ? `courseId=${encodeURIComponent(courseId)}&` : ''}educatorId=${encodeURIComponent(educatorId)}`),
  validateVoucher: (body: { code: string; course_ref: string; educator_ref: string; origin: string }) =>
    post<{ voucher_id: string; code?: string }>('/vouchers/validate', body),
  slots: (educatorSlug: string, courseSlug: string, from: string, to: string, duration: number) =>
    call<{ from: string; to: string }[]>(
      `/courses/${encodeURIComponent(educatorSlug)}/${encodeURIComponent(courseSlug)}/availability/slots?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&duration=${duration}`,
    ),
  occurrences: (educatorId: string, courseId: string) =>
    call<{ occurrences?: OccurrenceView[] }>(`/get-course-data-ids/${encodeURIComponent(educatorId)}/${encodeURIComponent(courseId)}`),
  /** The built-in test card provider (what a card element does in the browser). */
  confirmTestPayment: (paymentId: string, body: { card_number: string; client_secret: string; return_url: string }) =>
    post<TestPaymentView>(`/test-payments/${encodeURIComponent(paymentId)}/confirm`, body),
};

export interface TestPaymentView {
  id: string;
  status: string;
  client_secret?: string;
  last_payment_error?: { type?: string; code?: string; message?: string } | null;
  next_action?: { type: string; redirect_to_url?: { url: string } } | null;
}
