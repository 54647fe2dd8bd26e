/**
 * Spec 2.14 "Log in or Sign Up" (and what an after-login step shows while logged out): a link to the main
 * site's {host}/login?redirect={current url}&educator={educatorId} (no educator on the marketplace origin).
 * In an embed the login opens in a first-party window (no third-party cookies, DESIGN 5): the accounts
 * store's startLogin posts the code back; identity is also checked again whenever this window regains focus.
 */
import type { CheckoutOrigin } from '../../../domain/checkout/flows.ts';
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, reloadCheckout } from '../../../stores/checkout.ts';
import { STEP_LABELS } from '../../../domain/checkout/steps.ts';
import { loginUrl } from '../../../domain/links.ts';
import { $identity, refreshIdentity, startLogin } from '../identity.ts';
import { StepHeading, useContinue } from '../shared.tsx';
import type { CheckoutBootstrap } from '../types.ts';

/** Spec 2.5 / 2.16: {host}/login?redirect={current url}&educator={id}, without the educator on the marketplace origin. */
export function checkoutLoginUrl(bootstrap: Pick<CheckoutBootstrap, 'host' | 'protocol'>, educatorId: string | null | undefined, origin: CheckoutOrigin): string {
  return loginUrl({
    host: bootstrap.host,
    protocol: bootstrap.protocol,
    currentUrl: typeof window === 'undefined' ? '' : window.location.href,
    educatorId,
    origin,
  });
}

/** In an embed: re-check identity when the window regains focus (the login window closed). */
export function useIdentityOnFocus(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const check = () => void refreshIdentity();
    window.addEventListener('focus', check);
    return () => window.removeEventListener('focus', check);
  }, [enabled]);
}

export function LoginLink({ educatorId, origin, label, className = 'btn' }: { educatorId: string | null | undefined; origin: CheckoutOrigin; label: string; className?: string }) {
  const bootstrap = useStore($bootstrap)!;
  const embed = bootstrap.context === 'embed';
  useIdentityOnFocus(embed);
  const href = checkoutLoginUrl(bootstrap, educatorId, origin);
  if (!embed) return <a className={className} href={href}>{label}</a>;
  return (
    <button type="button" className={className} onClick={() => startLogin({ educatorId, onDone: () => void reloadCheckout() })}>
      {label}
    </button>
  );
}

export default function LoginStep() {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const identity = useStore($identity);
  useContinue(null);
  const embed = bootstrap.context === 'embed';

  useEffect(() => {
    // Logged in meanwhile (another tab, the login window): the server moves on from the login step.
    if (identity.authenticated) void reloadCheckout();
  }, [identity.authenticated]);

  return (
    <section className="checkout-step stack" aria-labelledby="checkout-step-heading">
      <StepHeading>{STEP_LABELS.login}</StepHeading>
      <p>Log in or create an account to continue. You will come straight back to this checkout.</p>
      <p>
        <LoginLink educatorId={state.educatorId} origin={state.origin} label={STEP_LABELS.login} />
      </p>
      {embed && <p className="small muted">The login opens in a new window. This page continues when you have logged in.</p>}
    </section>
  );
}
