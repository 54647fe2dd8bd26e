/**
 * The checkout island (spec 2.14): the one React island of /checkout and /embed/checkout. Its state lives in
 * nanostores (src/stores/checkout.ts); this component lays out the screen:
 *   spinner (+ the error title) before initialisation · "Back to Website" (embed) · the step breadcrumb ·
 *   Back · the error banner · the step area (blurred and inert while submitting) · the summary sidebar
 *   (Continue) · the mobile Back / Continue bar · the restricted course screen (spec 2.16).
 * Focus moves to the error banner on error and to each new step's heading on step change.
 */
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import {
  $bootstrap, $checkout, $costSummary, $initError, $restricted, $submitting, onFirstReady, reloadCheckout, startCheckout, submitAction,
} from '../../stores/checkout.ts';
import { backToWebsiteHref } from '../../stores/embed.ts';
import { backAction, breadcrumbLabels, stepView, type StepId } from '../../domain/checkout/steps.ts';
import { BACK_TO_WEBSITE, UNKNOWN_STEP_TEXT } from '../../domain/checkout/constants.ts';
import { checkoutEventParams } from '../../domain/checkout/ui.ts';
import { courseLink, educatorPageUrl } from '../../domain/links.ts';
import { flowSellsCourse } from '../../domain/checkout/flows.ts';
import { $identity, refreshIdentity } from './identity.ts';
import { once, trackBeginCheckout, trackPurchase } from './analytics.ts';
import type { CheckoutBootstrap, CheckoutState } from './types.ts';
import ErrorBanner from './ErrorBanner.tsx';
import Summary, { ContinueButton } from './Summary.tsx';
import Confirmation from './Confirmation.tsx';
import Restricted from './Restricted.tsx';
import DateStep from './steps/DateStep.tsx';
import SpacesStep from './steps/SpacesStep.tsx';
import DeliveryStep from './steps/DeliveryStep.tsx';
import DatesStep from './steps/DatesStep.tsx';
import MessageStep from './steps/MessageStep.tsx';
import ContactStep from './steps/ContactStep.tsx';
import LoginStep from './steps/LoginStep.tsx';
import PaymentStep from './steps/PaymentStep.tsx';
import GiftAmountStep from './steps/GiftAmountStep.tsx';
import GiftDetailsStep from './steps/GiftDetailsStep.tsx';
import PlanStep from './steps/PlanStep.tsx';
import { Spinner, STEP_HEADING_ID, StepHeading } from './shared.tsx';

function Breadcrumb({ state }: { state: CheckoutState }) {
  const steps = state.steps ?? [];
  const labels = breadcrumbLabels(steps);
  const current = state.status === 'completed' ? 'confirmation' : state.currentStep;
  return (
    <nav className="checkout-breadcrumb" aria-label="Checkout steps">
      <ol>
        {steps.map((step, i) => (
          <li key={step} aria-current={step === current ? 'step' : undefined} className={step === current ? 'is-current' : i < steps.indexOf(current as never) ? 'is-done' : ''}>
            {labels[i]}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * The screen of each step, by the step ids the server uses (src/domain/checkout/steps.ts StepId): a step without a
 * screen does not compile. A step that differs between flows asks the flow's rules (its action names, which Dates
 * step), never the flow's name.
 */
const STEP_SCREENS: { readonly [S in StepId]: ComponentType } = {
  date: DateStep,
  spaces: () => <SpacesStep step="spaces" />,
  offers: () => <SpacesStep step="offers" />,
  delivery: DeliveryStep,
  dates: DatesStep,
  message: MessageStep,
  login: LoginStep,
  contactDetails: ContactStep,
  payment: PaymentStep,
  confirmation: Confirmation,
  plan: PlanStep,
  giftAmount: GiftAmountStep,
  giftDetails: GiftDetailsStep,
};

/** Spec 2.14: "An unknown step shows "Unknown step"" (a step id this screen does not know, e.g. a newer server's). */
function UnknownStep() {
  return (
    <section className="checkout-step" aria-labelledby={STEP_HEADING_ID}>
      <StepHeading>{UNKNOWN_STEP_TEXT}</StepHeading>
    </section>
  );
}

function StepArea({ state, loggedIn }: { state: CheckoutState; loggedIn: boolean }) {
  // The confirmation shows whoever is logged in (the login screen stands in for the other after-login steps).
  if (state.status === 'completed' || state.currentStep === 'confirmation') return <Confirmation />;
  const view = stepView(state.flow, state.currentStep, loggedIn);
  const Screen = view === 'unknown' ? UnknownStep : STEP_SCREENS[view];
  return <Screen />;
}

function BackButton({ state, bootstrap, className = '' }: { state: CheckoutState; bootstrap: CheckoutBootstrap; className?: string }) {
  const submitting = useStore($submitting);
  if (state.status === 'completed') return null;
  const steps = state.steps ?? [];
  const current = steps.includes(state.currentStep as never) ? (state.currentStep as (typeof steps)[number]) : steps[0];
  const action = current ? backAction(steps, current, state.origin) : 'history';
  // Without a course (gift voucher, membership) the first step's Back leads to the educator's page.
  const educatorSlug = bootstrap.educator!.slug;
  const coursePage = bootstrap.course
    ? courseLink('embed', { educatorSlug, courseSlug: bootstrap.course.slug, host: bootstrap.host }).href
    : educatorPageUrl('embed', bootstrap.host, educatorSlug, bootstrap.protocol);
  return (
    <button
      type="button"
      className={`btn btn--secondary checkout-back ${className}`}
      disabled={submitting}
      onClick={() => {
        if (action === 'previous-step') void submitAction('go back', {});
        else if (action === 'course-page') window.location.assign(coursePage);
        else if (window.history.length > 1) window.history.back();
        else if (!bootstrap.course) window.location.assign(educatorPageUrl(bootstrap.origin, bootstrap.host, educatorSlug, bootstrap.protocol));
        else window.location.assign(courseLink(bootstrap.context === 'minisite' ? 'minisite' : 'marketplace', {
          educatorSlug, currentEducatorSlug: educatorSlug, courseSlug: bootstrap.course.slug, host: bootstrap.host,
        }).href);
      }}
    >
      Back
    </button>
  );
}

/**
 * "Back to Website" depends on the browser (the embedding page's origin): decided after hydration, so the first
 * render matches the server's HTML whatever the address holds.
 */
function useParentUrl(bootstrap: CheckoutBootstrap): string | null {
  const [parentUrl, setParentUrl] = useState<string | null>(null);
  useEffect(() => {
    if (bootstrap.context === 'embed') setParentUrl(backToWebsiteHref(bootstrap.parentWindowUrl));
  }, [bootstrap.context, bootstrap.parentWindowUrl]);
  return parentUrl;
}

/** Initialises once: the bootstrap into the store, begin_checkout when first ready, the identity, the checkout. */
function useStartCheckout(bootstrap: CheckoutBootstrap): void {
  useEffect(() => {
    $bootstrap.set(bootstrap);
    onFirstReady((ready) => {
      const codes = bootstrap.educator?.thirdPartyCodes ?? {};
      if ((codes.ga4_id || codes.facebook_pixel_id) && once(`begin_checkout:${ready._id}`)) {
        trackBeginCheckout(codes, checkoutEventParams({
          courseId: ready.courseId, courseName: bootstrap.course?.name ?? '', currency: ready.currency || 'GBP',
          totalPence: ready.totalCost ?? ready.costSummary?.total_cost ?? null,
        }));
      }
    });
    // Spec 4: the identity state refreshes if it is not ready.
    if (!$identity.get().ready) void refreshIdentity();
    void startCheckout();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once per page: the bootstrap is the server's and never changes, and running again would start a second checkout
}

/** Logged in meanwhile: GET the state (the server moves past the login step, or grants access). */
function useReloadOnLogin(state: CheckoutState | null, restricted: boolean, authenticated: boolean): void {
  useEffect(() => {
    if (!authenticated) return;
    if (restricted) void reloadCheckout();
    else if (state && state.status !== 'completed' && (state.steps ?? []).includes('login')) void reloadCheckout();
  }, [authenticated]); // eslint-disable-line react-hooks/exhaustive-deps -- only on logging in: reloading whenever the state changes would reload after every reload
}

/** Focuses the new step's heading on step change (not on the first render). */
function useStepFocus(stepKey: string | null): void {
  const lastStep = useRef<string | null>(null);
  useEffect(() => {
    if (!stepKey) return;
    if (lastStep.current !== null && lastStep.current !== stepKey) {
      const heading = document.getElementById(STEP_HEADING_ID);
      heading?.focus();
      heading?.scrollIntoView({ block: 'nearest' });
    }
    lastStep.current = stepKey;
  }, [stepKey]);
}

/** purchase: once, when the checkout completes. */
function usePurchaseEvent(state: CheckoutState | null, bootstrap: CheckoutBootstrap): void {
  useEffect(() => {
    if (!state || state.status !== 'completed') return;
    const codes = bootstrap.educator?.thirdPartyCodes ?? {};
    if (!codes.ga4_id && !codes.facebook_pixel_id) return;
    const outcomeId = state.bookingId ?? state.orderId ?? state.requestId ?? state.applicationId ?? state._id;
    if (!once(`purchase:${state._id}`)) return;
    trackPurchase(codes, checkoutEventParams({
      courseId: state.courseId, courseName: bootstrap.course?.name ?? '', currency: state.currency || 'GBP',
      totalPence: state.outcome?.totalCost ?? state.totalCost ?? $costSummary.get()?.total_cost ?? 0, transactionId: outcomeId,
    }));
  }, [state, bootstrap.course?.name, bootstrap.educator?.thirdPartyCodes]);
}

function CheckoutLoading() {
  const initError = useStore($initError);
  return (
    <div className="checkout-loading">
      <Spinner label="Loading the checkout" />
      {initError && <p className="checkout-loading__error" role="alert">{initError.title}</p>}
    </div>
  );
}

/** The screen of a ready checkout: the top bar, the error banner, the step area, the summary and the mobile bar. */
function CheckoutGrid({ state, bootstrap, loggedIn }: { state: CheckoutState; bootstrap: CheckoutBootstrap; loggedIn: boolean }) {
  const submitting = useStore($submitting);
  const completed = state.status === 'completed';
  return (
    <div className={`checkout-grid${completed ? ' is-complete' : ''}`}>
      <div className="checkout-main">
        <div className="checkout-topbar">
          <BackButton state={state} bootstrap={bootstrap} className="checkout-back--top" />
          <Breadcrumb state={state} />
        </div>
        <ErrorBanner />
        <p className="visually-hidden" role="status" aria-live="polite">{submitting ? 'Submitting…' : ''}</p>
        <div className={`checkout-stage${submitting ? ' is-submitting' : ''}`} aria-busy={submitting} inert={submitting || undefined}>
          <StepArea state={state} loggedIn={loggedIn} />
        </div>
      </div>
      <Summary />
      {!completed && (
        <div className="checkout-mobile-bar">
          <BackButton state={state} bootstrap={bootstrap} />
          <ContinueButton />
        </div>
      )}
    </div>
  );
}

export default function CheckoutApp({ bootstrap }: { bootstrap: CheckoutBootstrap }) {
  const boot = useStore($bootstrap);
  const state = useStore($checkout);
  const restricted = useStore($restricted);
  const identity = useStore($identity);
  const parentUrl = useParentUrl(bootstrap);
  useStartCheckout(bootstrap);
  useReloadOnLogin(state, restricted, identity.authenticated);
  useStepFocus(state ? `${state.status}:${state.currentStep}:${identity.authenticated}` : null);
  usePurchaseEvent(state, bootstrap);

  const b = boot ?? bootstrap;
  const backToWebsite = parentUrl ? (
    <div className="back-to-website">
      <a href={parentUrl} target="_top">← {BACK_TO_WEBSITE}</a>
    </div>
  ) : null;

  let content: ReactNode;
  if (restricted && b.course) {
    content = <Restricted />;
  } else if (!state || !b.educator || (flowSellsCourse(state.flow) && !b.course)) {
    // A course flow waits for its course; a flow without one (gift voucher, membership) needs only the educator.
    content = <CheckoutLoading />;
  } else {
    // Before identity is known, the server's view of the login decides which step shows.
    const loggedIn = identity.ready ? identity.authenticated : !(state.steps ?? []).includes('login');
    content = <CheckoutGrid state={state} bootstrap={b} loggedIn={loggedIn} />;
  }

  return (
    <div className="checkout-app">
      {backToWebsite}
      {content}
    </div>
  );
}
