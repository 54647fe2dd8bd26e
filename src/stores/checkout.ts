/**
 * The checkout screen's state (spec 4 "Checkout lifecycle"): the server's checkout state and everything the
 * island loads around it. Not initialised → initialised once the initialise (or, on a reload, GET) call
 * returns a state with an `_id`; each submitted response replaces the state with the server's answer.
 *
 * - The checkout id is written into the URL (?checkoutId=) and, in an embed, posted to the parent window,
 *   so a reload resumes the checkout (GET) instead of initialising again.
 * - The cost summary is cached in sessionStorage under `checkout_cost_summary` with the checkout id and a
 *   timestamp, and ignored when older than 1 hour or for another checkout (spec 5, 7, 9).
 * - begin_checkout fires once, when the checkout first becomes ready.
 */
import { flowSellsCourse, isDatedFlow } from '../domain/checkout/flows.ts';
import { supersedes } from '../domain/checkout/state.ts';
import { atom, computed } from 'nanostores';
import type { Problem } from '../domain/problems.ts';
import { problems } from '../domain/problems.ts';
import { COST_SUMMARY_KEY, isCostSummaryCacheValid, type CostSummaryCacheEntry } from '../domain/redirects.ts';
import { cardReturnParams, isUnauthorisedCheckout, urlWithCheckoutId, withoutCardReturnParams, type CostSummaryRequest } from '../domain/checkout/ui.ts';
import { checkoutApi, toProblem, CheckoutProblem } from '../islands/checkout/api.ts';
import type { CheckoutBootstrap, CheckoutState, CostSummaryView, OccurrenceView, PaymentOptionsView } from '../islands/checkout/types.ts';
import { embedParentOrigin } from './embed.ts';

export const $bootstrap = atom<CheckoutBootstrap | null>(null);
/** The server's checkout state (null until initialised). */
export const $checkout = atom<CheckoutState | null>(null);
/** A problem before initialisation (shown under the spinner as its title). */
export const $initError = atom<Problem | null>(null);
/** The checkout answered with the unauthorised problem: the restricted course screen (spec 2.16). */
export const $restricted = atom(false);
/** The error banner's problem. */
export const $error = atom<Problem | null>(null);
/** A response is being submitted: the step area is blurred and inert. */
export const $submitting = atom(false);
export const $costSummary = atom<CostSummaryView | null>(null);
export const $paymentOptions = atom<PaymentOptionsView | null>(null);
/** Listed occurrences of the course (Date step, summary date and delivery lines). */
export const $occurrences = atom<OccurrenceView[] | null>(null);
/** The current step's Continue: shown when set, enabled when `enabled`. */
export const $continue = atom<{ enabled: boolean; label?: string } | null>(null);
/** Mobile: the full summary is open. */
export const $summaryOpen = atom(false);

export const $ready = computed($checkout, (state) => !!state?._id);

/** The id of the form every step renders; the Continue buttons submit it (`form` attribute). */
export const STEP_FORM_ID = 'checkout-step-form';

const now = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------------------------------------
// Cost summary cache (sessionStorage `checkout_cost_summary`)

export function readCachedCostSummary(checkoutId: string): CostSummaryView | null {
  try {
    const raw = sessionStorage.getItem(COST_SUMMARY_KEY);
    if (!raw) return null;
    const entry = JSON.parse(raw) as CostSummaryCacheEntry<CostSummaryView>;
    return isCostSummaryCacheValid(entry, checkoutId, now()) ? (entry.summary ?? null) : null;
  } catch {
    return null;
  }
}

function cacheCostSummary(checkoutId: string, summary: CostSummaryView): void {
  try {
    const entry: CostSummaryCacheEntry<CostSummaryView> = { checkoutId, timestamp: now(), summary };
    sessionStorage.setItem(COST_SUMMARY_KEY, JSON.stringify(entry));
  } catch {
    /* storage full or refused: the summary is simply not cached */
  }
}

export function setCostSummary(summary: CostSummaryView | null): void {
  $costSummary.set(summary);
  const id = $checkout.get()?._id;
  if (summary && id) cacheCostSummary(id, summary);
}

let summarySeq = 0;

/** POST /custom/get-checkout-summary for the selection being edited (the latest call wins). */
export async function refreshCostSummary(body: CostSummaryRequest): Promise<void> {
  const seq = ++summarySeq;
  try {
    const summary = await checkoutApi.costSummary(body);
    if (seq === summarySeq) setCostSummary(summary);
  } catch {
    /* the summary keeps its last value; the server validates the selection on Continue */
  }
}

// ---------------------------------------------------------------------------------------------
// The address bar and the embed's parent

function writeCheckoutIdToUrl(checkoutId: string): void {
  try {
    const next = urlWithCheckoutId(window.location.href, checkoutId);
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next);
  } catch {
    /* history unavailable */
  }
  const bootstrap = $bootstrap.get();
  if (bootstrap?.context === 'embed' && window.parent !== window) {
    const parentOrigin = embedParentOrigin();
    if (parentOrigin) window.parent.postMessage({ type: 'marketplace:checkout', checkoutId }, parentOrigin);
  }
}

function utmsFromUrl(): Record<string, string> {
  const utms: Record<string, string> = {};
  new URL(window.location.href).searchParams.forEach((value, key) => {
    if (key.startsWith('utm_') && value) utms[key] = value.slice(0, 500);
  });
  return utms;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

type ReadyListener = (state: CheckoutState) => void;
const readyListeners: ReadyListener[] = [];

/** Called once, when the checkout first becomes ready (begin_checkout). */
export function onFirstReady(listener: ReadyListener): void {
  readyListeners.push(listener);
}

function accept(state: CheckoutState): void {
  const shown = $checkout.get();
  if (!supersedes(state, shown)) return;
  // A preview (no id yet) is not a checkout: the first written state is the one that becomes ready.
  const first = !shown?._id;
  $checkout.set(state);
  $initError.set(null);
  $restricted.set(false);
  if (state.costSummary) setCostSummary(state.costSummary);
  writeCheckoutIdToUrl(state._id);
  if (first) for (const listener of readyListeners) listener(state);
}

function fail(problem: Problem): void {
  if (isUnauthorisedCheckout(problem)) {
    $restricted.set(true);
    return;
  }
  $initError.set(problem);
}

/**
 * Initialises the checkout, or resumes it when the URL carries ?checkoutId= (GET); a resumed checkout of
 * another course or flow, or one that was abandoned, is initialised again.
 */
export async function startCheckout(): Promise<void> {
  const bootstrap = $bootstrap.get();
  if (!bootstrap) return;
  // A course flow needs its course; a flow that sells from the educator (gift voucher, membership) its educator.
  const sellsCourse = !!bootstrap.flow && flowSellsCourse(bootstrap.flow);
  if (bootstrap.problem || !bootstrap.flow || (sellsCourse ? !bootstrap.courseId : !bootstrap.educator)) {
    $initError.set(bootstrap.problem ?? problems.notFound('No course was chosen for this checkout.'));
    return;
  }
  const sameSeller = (state: CheckoutState) => (sellsCourse ? state.courseId === bootstrap.courseId : state.educatorId === bootstrap.educator?.id);
  const existingId = new URL(window.location.href).searchParams.get('checkoutId');
  if (existingId && isPaymentWindow()) return finishPaymentWindow(existingId);
  if (existingId) {
    const cached = readCachedCostSummary(existingId);
    if (cached) $costSummary.set(cached);
    try {
      const state = await checkoutApi.get(existingId);
      if (sameSeller(state) && state.flow === bootstrap.flow && state.status !== 'abandoned') {
        accept(state);
        await handleCardReturn(state);
        return;
      }
    } catch (error) {
      const problem = toProblem(error);
      if (isUnauthorisedCheckout(problem)) return fail(problem);
      // Not found (or not this learner's): start a new one.
    }
    $costSummary.set(null);
  }
  try {
    if (!sellsCourse) {
      // A flow without a course opens on a page of its own (/gift-checkout) that anyone may visit: its first step
      // is shown from a preview, and the checkout is written on the learner's first action (submitAction).
      const preview = await checkoutApi.preview(bootstrap.flow, bootstrap.educator!.id, bootstrap.origin);
      $checkout.set(preview);
      $initError.set(null);
      return;
    }
    accept(await initialise(bootstrap));
  } catch (error) {
    fail(toProblem(error));
  }
}

function initialise(bootstrap: CheckoutBootstrap): Promise<CheckoutState> {
  const sellsCourse = flowSellsCourse(bootstrap.flow!);
  return checkoutApi.initialise(bootstrap.flow!, {
    checkoutId: null,
    ...(sellsCourse ? { courseId: bootstrap.courseId } : { educatorId: bootstrap.educator?.id ?? null }),
    // Spec 7: only dated flows (booking, bookingApplication) send the occurrence.
    occurrenceId: isDatedFlow(bootstrap.flow!) ? bootstrap.occurrenceId : null,
    origin: bootstrap.origin,
    bookedOnURL: window.location.href,
    utms: utmsFromUrl(),
  });
}

/** GET the state again (after logging in, or when the learner comes back to the tab). */
export async function reloadCheckout(): Promise<void> {
  const id = $checkout.get()?._id;
  if (!id) {
    if ($restricted.get() || $initError.get()) {
      $restricted.set(false);
      $initError.set(null);
      await startCheckout();
    }
    return;
  }
  try {
    accept(await checkoutApi.get(id));
  } catch (error) {
    const problem = toProblem(error);
    if (isUnauthorisedCheckout(problem)) $restricted.set(true);
  }
}

/**
 * Submits one action ({action, payload}) and replaces the state with the answer. Returns the new state, or
 * null when it failed (the problem is in the error banner, or thrown back when `throwProblem`).
 */
export async function submitAction(action: string, payload: object = {}, options: { throwProblem?: boolean } = {}): Promise<CheckoutState | null> {
  const state = $checkout.get();
  if (!state || $submitting.get()) return null;
  $submitting.set(true);
  $error.set(null);
  try {
    let id = state._id;
    if (!id) {
      // A previewed checkout: the learner's first action writes it, then is submitted to it.
      const started = await initialise($bootstrap.get()!);
      accept(started);
      id = started._id;
    }
    const next = await checkoutApi.submit(id, action, payload);
    accept(next);
    return next;
  } catch (error) {
    const problem = toProblem(error);
    if (isUnauthorisedCheckout(problem)) $restricted.set(true);
    else if (options.throwProblem) throw new CheckoutProblem(problem);
    else $error.set(problem);
    return null;
  } finally {
    $submitting.set(false);
  }
}

/** Shows a problem in the error banner (payment providers, vouchers…). */
export function showProblem(problem: Problem | null): void {
  $error.set(problem);
}

/**
 * Spec 2.14 / 4: the card provider may return to the checkout with payment_intent_client_secret and
 * redirect_status; the server checks them (and the payment) when "payment was successful" is submitted.
 */
async function handleCardReturn(state: CheckoutState): Promise<void> {
  const params = cardReturnParams(window.location.href);
  if (!params) return;
  try {
    window.history.replaceState(window.history.state, '', withoutCardReturnParams(window.location.href));
  } catch {
    /* history unavailable */
  }
  if (state.currentStep !== 'payment' && state.status !== 'completed') return;
  await submitAction('payment was successful', params);
}

// ---------------------------------------------------------------------------------------------
// Provider redirects inside an embed

/** The message a payment window sends to the embedded checkout that opened it. */
export const PAYMENT_RETURN_MESSAGE = 'marketplace:payment-return';

/** This window was opened by an embedded checkout for a provider redirect and has come back from it. */
function isPaymentWindow(): boolean {
  return $bootstrap.get()?.context === 'embed' && window.top === window && !!window.opener && !!cardReturnParams(window.location.href);
}

/** The payment window: report the return to the server (when this window may), tell the embed, close. */
async function finishPaymentWindow(checkoutId: string): Promise<void> {
  const params = cardReturnParams(window.location.href)!;
  try {
    await checkoutApi.submit(checkoutId, 'payment was successful', params);
  } catch {
    /* the embed checks the state itself */
  }
  try {
    (window.opener as Window).postMessage({ type: PAYMENT_RETURN_MESSAGE, checkoutId }, window.location.origin);
  } catch {
    /* the opener went away */
  }
  $initError.set({ ...problems.notFound(), title: 'Payment received. You can close this window.' });
  window.setTimeout(() => window.close(), 300);
}

/**
 * A provider's redirect (3-D Secure, pay-later). Outside an embed the page goes there and comes back with
 * payment_intent_client_secret and redirect_status. Inside an embed a navigation would lose the learner's
 * login (a third-party frame may be denied storage, so its token lives in memory): the redirect opens in a
 * first-party window instead, which comes back, reports to the server, tells this frame and closes; this
 * frame then reloads the state. 'completed' when the checkout completed without leaving the page.
 */
export async function followPaymentRedirect(url: string): Promise<'navigating' | 'completed' | 'failed'> {
  const embedded = $bootstrap.get()?.context === 'embed' && window.top !== window;
  const popup = embedded ? window.open(url, 'marketplace-payment', 'popup,width=520,height=720') : null;
  if (!popup) {
    window.location.assign(url);
    return 'navigating';
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = async () => {
      if (done) return;
      done = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
      await reloadCheckout();
      resolve($checkout.get()?.status === 'completed' ? 'completed' : 'failed');
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string } | null;
      if (event.origin === window.location.origin && data?.type === PAYMENT_RETURN_MESSAGE) void finish();
    };
    window.addEventListener('message', onMessage);
    const timer = window.setInterval(() => {
      if (popup.closed) void finish();
    }, 700);
  });
}

export async function loadPaymentOptions(): Promise<void> {
  const state = $checkout.get();
  if (!state || $paymentOptions.get()) return;
  try {
    $paymentOptions.set(await checkoutApi.paymentOptions(state.courseId, state.educatorId));
  } catch {
    // Spec 7: when the answer is missing, only card is enabled (resolvePaymentOptions).
    $paymentOptions.set(null);
  }
}

let occurrencesRequested = false;
export async function loadOccurrences(force = false): Promise<void> {
  const state = $checkout.get();
  if (!state || !state.courseId || (occurrencesRequested && !force)) return;
  occurrencesRequested = true;
  try {
    const body = await checkoutApi.occurrences(state.educatorId, state.courseId);
    $occurrences.set(Array.isArray(body.occurrences) ? body.occurrences : []);
  } catch {
    $occurrences.set([]);
  }
}
