/** A placed order to send to its provider (services/orders/order-submissions.ts consumes it). */
export interface SubmissionMessage {
  orderId: number;
}

/** A payment event to try again later (services/money/transfer-retries.ts): a bank transfer not creditable when its webhook came. */
export interface PaymentEventMessage {
  kind: 'transfer';
  reference: string;
  transactionId: string | null;
}

/** A reseller webhook delivery to post (services/reseller/webhook-deliveries.ts): the queue brings it back with backoff. */
export interface WebhookDeliveryMessage {
  deliveryId: number;
}

/**
 * An administrator's job too long for a request (services/money/admin-jobs.ts): the full reconciliation asked for at
 * `requestedAt`, or the ledger export by its id.
 */
export type AdminJobMessage = { kind: 'full-reconciliation'; requestedAt: string } | { kind: 'ledger-export'; exportId: number };

/**
 * An administrator's job queued or running this long ago was lost with its Worker (a queue consumer's invocation ends
 * within 15 minutes): it reads as failed, and a new start may replace it.
 */
export const ADMIN_JOB_LOST_AFTER_MINUTES = 20;

/** Bindings the Worker reads: vars from wrangler.toml, secrets from `wrangler secret put` (or .dev.vars locally). */
export interface Env {
  ASSETS?: Fetcher;
  /** Placed orders waiting to be sent to their provider (see services/orders/order-submissions.ts). */
  ORDER_SUBMISSIONS: Queue<SubmissionMessage>;
  /** Payment events tried again later, with backoff (see services/money/transfer-retries.ts). */
  PAYMENT_EVENTS: Queue<PaymentEventMessage>;
  /** Signed webhooks to resellers' endpoints, tried for a day (see services/reseller/webhook-deliveries.ts). */
  WEBHOOK_DELIVERIES: Queue<WebhookDeliveryMessage>;
  /** Administrators' jobs too long for a request: the full reconciliation and ledger exports (see services/money/admin-jobs.ts). */
  ADMIN_JOBS: Queue<AdminJobMessage>;
  /** The ledger exports' files, gzipped CSV, kept a day (see services/money/ledger-export-jobs.ts). */
  EXPORT_FILES: R2Bucket;
  /** Postgres connection string (Neon in production). */
  DATABASE_URL: string;
  /** Local stack only: "host:port/v1" of the WebSocket-to-TCP bridge in front of local Postgres. */
  DB_WS_PROXY?: string;
  /**
   * Local stack only: URL of the SQL-over-HTTP endpoint in front of local Postgres (neonConfig.fetchEndpoint),
   * e.g. "http://127.0.0.1:5490/sql". Unset in production, where the driver asks Neon's own, named after the host.
   */
  DB_HTTP_ENDPOINT?: string;
  /** Public origin of the shop, for links in emails and the payment return page. */
  APP_URL: string;
  /** HMAC key for access tokens and payment-payload signatures (at least 32 random bytes). */
  JWT_SECRET: string;
  /** Base64 of 32 random bytes: encrypts provider and payment keys at rest (AES-GCM). */
  ENCRYPTION_KEY: string;
  /** Used when Admin → Payment Settings holds no Paystack key. */
  PAYSTACK_SECRET_KEY?: string;
  PAYSTACK_BASE_URL?: string;
  /** Used when Admin → Payment Settings holds no Flutterwave secret key / webhook secret hash. */
  FLUTTERWAVE_SECRET_KEY?: string;
  FLUTTERWAVE_SECRET_HASH?: string;
  FLUTTERWAVE_BASE_URL?: string;
  RATES_API_URL?: string;
  /** Optional HTTP email API (Resend-compatible JSON); without it mail is only recorded in email_outbox. */
  EMAIL_API_URL?: string;
  EMAIL_API_KEY?: string;
  EMAIL_FROM?: string;
  /**
   * "production" in wrangler.toml; the local stack says "development" and the tests "test". Anything
   * but those two counts as production, so a deployment never falls back to local conveniences.
   */
  ENVIRONMENT?: string;
}

/** The local stack and the tests: test-mode payments by default, emails echoed to the log. */
export const isLocalEnvironment = (env: Pick<Env, 'ENVIRONMENT'>): boolean => env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test';
