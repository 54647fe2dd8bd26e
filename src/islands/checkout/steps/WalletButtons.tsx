/**
 * The wallet-payment provider (spec 2.14, 4, 7, 8): PayPal's buttons. The order is created by the server
 * when the method is selected (`paypalOrderId`); the buyer approves it in PayPal, and "payment was
 * successful" lets the server capture it (success only when the capture is COMPLETED). Cancelling
 * re-enables the form; an SDK failure shows "An error occurred with PayPal. Please try again or use a
 * different payment method.".
 * Without a PayPal client id the built-in test wallet stands in: its button opens an approval panel
 * (Approve / Cancel) instead of PayPal's window.
 */
import { useEffect, useRef, useState } from 'react';
import { showProblem, submitAction } from '../../../stores/checkout.ts';
import { walletProviderProblem } from '../../../domain/problems.ts';
import type { PublicProviderConfig } from '../types.ts';

const WALLET_NAME = 'PayPal';

interface PayPalButtons {
  render(container: HTMLElement): Promise<void>;
  close?(): Promise<void>;
}
interface PayPalNamespace {
  Buttons(options: {
    createOrder: () => string | Promise<string>;
    onApprove: () => Promise<void>;
    onCancel: () => void;
    onError: (error: unknown) => void;
    style?: Record<string, unknown>;
  }): PayPalButtons;
}

declare global {
  interface Window {
    paypal?: PayPalNamespace;
  }
}

function loadPayPal(clientId: string, currency: string): Promise<PayPalNamespace> {
  if (window.paypal) return Promise.resolve(window.paypal);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.paypal.com/sdk/js?client-id=${encodeURIComponent(clientId)}&currency=${encodeURIComponent(currency)}&intent=capture`;
    script.async = true;
    script.onload = () => (window.paypal ? resolve(window.paypal) : reject(new Error('PayPal SDK missing')));
    script.onerror = () => reject(new Error('PayPal SDK failed to load'));
    document.head.appendChild(script);
  });
}

/** PayPal's own buttons, rendered into the returned container once the SDK has loaded. */
function usePayPalButtons(config: PublicProviderConfig | undefined, orderId: string, setBusy: (busy: boolean) => void) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (config?.provider !== 'paypal') return;
    let buttons: PayPalButtons | null = null;
    let cancelled = false;
    loadPayPal(config.clientId, config.currency)
      .then((paypal) => {
        if (cancelled || !containerRef.current) return;
        buttons = paypal.Buttons({
          createOrder: () => orderId,
          onApprove: async () => {
            setBusy(true);
            await submitAction('payment was successful', {});
            setBusy(false);
          },
          // Spec 4 / 8: cancelling re-enables the form.
          onCancel: () => setBusy(false),
          onError: () => {
            setBusy(false);
            showProblem(walletProviderProblem('sdk_error', WALLET_NAME));
          },
          style: { layout: 'vertical', label: 'paypal' },
        });
        void buttons.render(containerRef.current).catch(() => showProblem(walletProviderProblem('sdk_error', WALLET_NAME)));
      })
      .catch(() => {
        if (!cancelled) showProblem(walletProviderProblem('sdk_error', WALLET_NAME));
      });
    return () => {
      cancelled = true;
      void buttons?.close?.();
    };
  }, [config, orderId, setBusy]);

  return containerRef;
}

/** The test wallet: its button opens an approval panel (Approve / Cancel) in place of PayPal's window. */
function TestWallet({ totalText, busy, setBusy }: { totalText: string | null; busy: boolean; setBusy: (busy: boolean) => void }) {
  const [approving, setApproving] = useState(false);
  const approveRef = useRef<HTMLButtonElement>(null);
  const walletRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (approving) approveRef.current?.focus();
  }, [approving]);

  return (
    <div className="stack wallet-buttons">
      {!approving ? (
        <button ref={walletRef} type="button" className="btn btn--block wallet-button" disabled={busy} onClick={() => setApproving(true)}>
          Pay with {WALLET_NAME}
        </button>
      ) : (
        <div className="wallet-approval panel stack" role="group" aria-label={`${WALLET_NAME} approval`}>
          <p>Approve the payment{totalText ? ` of ${totalText}` : ''} with {WALLET_NAME} (test wallet).</p>
          <div className="wallet-approval__actions">
            <button
              ref={approveRef}
              type="button"
              className="btn"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                showProblem(null);
                const next = await submitAction('payment was successful', {});
                setBusy(false);
                if (!next) setApproving(false);
              }}
            >
              Approve
            </button>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => {
                // Cancelling re-enables the form.
                setApproving(false);
                setBusy(false);
                window.setTimeout(() => walletRef.current?.focus(), 0);
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

export function WalletButtons(props: {
  config: PublicProviderConfig | undefined;
  orderId: string;
  totalText: string | null;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}) {
  const { config, orderId, totalText, busy, setBusy } = props;
  const containerRef = usePayPalButtons(config, orderId, setBusy);
  if (config?.provider === 'paypal') return <div ref={containerRef} className="wallet-buttons" />;
  // The test wallet: the buyer's approval happens in this panel.
  return <TestWallet totalText={totalText} busy={busy} setBusy={setBusy} />;
}
