// Which world a secret key opens. Both providers keep test and live apart by key: a test key
// sees only sandbox transactions, and its name says so (Paystack "sk_test_…", Flutterwave
// "FLWSECK_TEST-…"; their live keys are "sk_live_…" and "FLWSECK-…").
import type { PaymentDomain, PaymentProviderName } from './types';

const TEST_KEY_PATTERNS: Record<PaymentProviderName, RegExp> = {
  paystack: /^sk_test_/i,
  flutterwave: /^FLWSECK_TEST-/i,
};

/** What the live keys look like, for messages to the administrator. */
export const LIVE_KEY_SHAPES: Record<PaymentProviderName, string> = { paystack: 'sk_live_…', flutterwave: 'FLWSECK-…' };
export const TEST_KEY_SHAPES: Record<PaymentProviderName, string> = { paystack: 'sk_test_…', flutterwave: 'FLWSECK_TEST-…' };

export function keyDomain(provider: PaymentProviderName, secretKey: string): PaymentDomain {
  return TEST_KEY_PATTERNS[provider].test(secretKey.trim()) ? 'test' : 'live';
}
