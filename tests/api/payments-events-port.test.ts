/**
 * The payment events port (api/payments/port.ts): a provider's success goes to `deps.paymentEvents`, which the
 * composition root wires to the checkout engine; without a sink the event is not taken (the webhook then answers
 * 500 and the provider redelivers), never silently dropped.
 */
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../api/deps.ts';
import { onPaymentSucceeded } from '../../api/payments/events.ts';
import type { PaymentEvent } from '../../api/payments/port.ts';

const success = { provider: 'stripe', eventId: 'evt_port_1', checkoutId: 'chk_1', paymentId: 'pi_1', amount: 1000, currency: 'GBP' };

describe('payment events port', () => {
  it('hands a success to the wired sink, in the engine\u2019s vocabulary, and answers with its result', async () => {
    const seen: PaymentEvent[] = [];
    const deps = { paymentEvents: { succeeded: async (event: PaymentEvent) => (seen.push(event), 'completed' as const) } } as unknown as Deps;
    await expect(onPaymentSucceeded(deps, success)).resolves.toBe('completed');
    expect(seen).toEqual([{ provider: 'stripe', eventId: 'evt_port_1', type: 'payment.succeeded', paymentId: 'pi_1' }]);
  });

  it('refuses to take an event when nothing is wired', async () => {
    await expect(onPaymentSucceeded({} as Deps, success)).rejects.toThrow(/nowhere to go/);
  });
});
