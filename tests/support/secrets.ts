/** Throwaway secrets for the test stack only; production secrets come from `wrangler secret put`. */
export const TEST_SECRETS = {
  JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789abcdef',
  ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
  PAYSTACK_SECRET_KEY: 'sk_test_fake_paystack_secret',
  PAYSTACK_LIVE_SECRET_KEY: 'sk_live_fake_paystack_secret',
  FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-fake0flutterwave0secret-X',
  FLUTTERWAVE_LIVE_SECRET_KEY: 'FLWSECK-fake0flutterwave0secret-X',
  FLUTTERWAVE_SECRET_HASH: 'fake-flutterwave-secret-hash',
  EMAIL_API_KEY: 're_fake_email_api_key',
  SMM_API_KEY: 'fake-smm-provider-key',
} as const;
