/** Bindings the Worker reads: vars from wrangler.toml, secrets from `wrangler secret put` (or .dev.vars locally). */
export interface Env {
  ASSETS?: Fetcher;
  /** Postgres connection string (Neon in production). */
  DATABASE_URL: string;
  /** Local stack only: "host:port/v1" of the WebSocket-to-TCP bridge in front of local Postgres. */
  DB_WS_PROXY?: string;
  /** Public origin of the shop, for links in emails and the payment return page. */
  APP_URL: string;
  /** HMAC key for access tokens and payment-payload signatures (at least 32 random bytes). */
  JWT_SECRET: string;
  /** Base64 of 32 random bytes: encrypts provider and payment keys at rest (AES-GCM). */
  ENCRYPTION_KEY: string;
  PAYSTACK_SECRET_KEY?: string;
  PAYSTACK_BASE_URL?: string;
  RATES_API_URL?: string;
  /** Optional HTTP email API (Resend-compatible JSON); without it mail is only recorded in email_outbox. */
  EMAIL_API_URL?: string;
  EMAIL_API_KEY?: string;
  EMAIL_FROM?: string;
  /** "production" switches off local conveniences such as logging reset links. */
  ENVIRONMENT?: string;
}
