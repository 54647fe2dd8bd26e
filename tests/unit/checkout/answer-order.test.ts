/**
 * Answers about a checkout can arrive out of order: the page GETs the state when the learner's login is confirmed,
 * and the learner may press Continue before that answer is back. The later state must win, whichever answer
 * arrives last (a page taken back to a step it had left would wait there for a learner who already moved on).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { supersedes } from '../../../src/domain/checkout/state.ts';
import type { CheckoutState } from '../../../src/islands/checkout/types.ts';
import { $checkout, reloadCheckout, submitAction } from '../../../src/stores/checkout.ts';

describe('supersedes', () => {
  const shown = { _id: 'chk_1', version: 3 };
  it('lets the same or a later version of the shown checkout replace it, never an earlier one', () => {
    expect(supersedes({ _id: 'chk_1', version: 4 }, shown)).toBe(true);
    expect(supersedes({ _id: 'chk_1', version: 3 }, shown)).toBe(true);
    expect(supersedes({ _id: 'chk_1', version: 2 }, shown)).toBe(false);
  });
  it('lets any state replace another checkout, or nothing', () => {
    expect(supersedes({ _id: 'chk_2', version: 1 }, shown)).toBe(true);
    expect(supersedes({ _id: 'chk_1', version: 1 }, null)).toBe(true);
  });
});

describe('the checkout store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    $checkout.set(null);
  });

  const state = (currentStep: string, version: number) => ({ _id: 'chk_1', currentStep, version, status: 'open', costSummary: null }) as unknown as CheckoutState;

  /**
   * A fetch whose GET answers only when released, while POSTs answer at once. The store's only I/O is fetch, and a
   * real server cannot be made to answer two requests in a chosen order, so this test holds the answers itself:
   * what it checks is the store's choice between two answers. The server's side (the version every answer
   * carries) is the API tests', and the whole page the browser tests'.
   */
  function slowGet(getAnswer: CheckoutState, postAnswer: CheckoutState) {
    let release!: () => void;
    const released = new Promise<void>((ok) => (release = ok));
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
      if (init.method !== 'POST') await released;
      const body = JSON.stringify(init.method === 'POST' ? postAnswer : getAnswer);
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    return release;
  }

  it('keeps the answer to Continue when the GET sent before it answers after it', async () => {
    $checkout.set(state('delivery', 2));
    const release = slowGet(state('delivery', 2), state('dates', 3));
    const reloading = reloadCheckout();
    await submitAction('request delivery configured', {});
    expect($checkout.get()?.currentStep).toBe('dates');
    release();
    await reloading;
    expect($checkout.get()).toMatchObject({ currentStep: 'dates', version: 3 });
  });

  it('takes a GET that brings a later state', async () => {
    $checkout.set(state('delivery', 2));
    const release = slowGet(state('payment', 4), state('dates', 3));
    const reloading = reloadCheckout();
    await submitAction('request delivery configured', {});
    release();
    await reloading;
    expect($checkout.get()).toMatchObject({ currentStep: 'payment', version: 4 });
  });
});
