/** Throwaway secrets for the test stack only; production secrets come from `wrangler secret put`. */
export const TEST_SECRETS = {
  JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789abcdef',
  ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
  PAYSTACK_SECRET_KEY: 'sk_test_fake_paystack_secret',
  SMM_API_KEY: 'fake-smm-provider-key',
} as const;
