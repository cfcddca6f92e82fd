// What the SMM client tests share: this test file's own copy of the fake panel (see fake-scope.ts)
// with a client of it, the fake catalogue services they order, and the steps they take on orders.
import { inject, vi } from 'vitest';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { SmmProviderError } from '../../../worker/providers/smm/types';
import { fakeScope, rejection } from './fake-scope';

export const apiKey = inject('smmApiKey');

/** Fake catalogue services used by the tests (see local/fakes/smm-catalogue.ts). */
export const FOLLOWERS = '1021'; // Default, $1.45 per 1000, min 100, max 100000, refill + cancel
export const LIKES = '1031'; // Default, $0.32, no refill, no cancel, drip-feed
export const COMMENTS = '1051'; // Custom Comments, $6.50, min 5
export const MENTIONS_HASHTAGS = '1064';
export const AUTO_LIKES = '1071'; // Subscriptions
export const POLL = '4041';
export const WATCH_TIME = '3041'; // Package, $45.00

let linkCounter = 0;
export function newLink(): string {
  linkCounter += 1;
  return `https://instagram.com/p/test${Date.now().toString(36)}${linkCounter}`;
}

export const failure = (promise: Promise<unknown>) => rejection(promise, SmmProviderError);

/**
 * Retries `check` until it passes: the fake panel moves orders and refills on with the clock (its
 * stepMs), so a test waits for the state it expects, never for a time. The test's timeout bounds it.
 */
export const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 25 });

/** A fresh copy of the fake panel for one test file, a client of it, and the steps the tests take on its orders. */
export function smmPanel() {
  const fake = fakeScope(inject('smmProviderUrl'));
  const apiUrl = `${fake.url}/api/v2`;
  const smm = createSmmClient({ apiUrl, apiKey, timeoutMs: 2000 });
  return {
    fake,
    apiUrl,
    smm,
    /** Orders followers for a new link and returns the panel's order id. */
    placeFollowers: async (quantity = 1000) => (await smm.add({ service: FOLLOWERS, link: newLink(), quantity })).orderId,
    /** Sets the fake's copy of an order to `state`, as if the panel had moved it there. */
    pin: async (orderId: string, state: Record<string, unknown>) => {
      await fake.post(`/__orders/${orderId}`, state);
    },
  };
}
