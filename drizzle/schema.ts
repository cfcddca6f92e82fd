// The single source of the database tables. `npm run db:generate` turns changes here
// into SQL under migrations/, which is committed and applied by `npm start`, the tests and deploys.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  DISABLED_REASONS,
  LINK_KINDS,
  NOTIFICATION_KINDS,
  ORDER_STATUSES,
  PRICE_MODES,
  REVERSAL_STATUSES,
  SUBMISSION_STATES,
  TICKET_KINDS,
  TICKET_STATUSES,
  USER_TYPE,
  WARNING_KINDS,
  WEBHOOK_DELIVERY_STATES,
} from '../vocabulary';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const kobo = (name: string) => bigint(name, { mode: 'bigint' });

// ---------------------------------------------------------------- accounts

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    userType: smallint('user_type').notNull().default(USER_TYPE.user),
    status: text('status', { enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** Optional TOTP second factor (administrators): the secret encrypted with ENCRYPTION_KEY. */
    totpSecretEncrypted: text('totp_secret_encrypted'),
    /** Set once a code from the authenticator app confirmed the secret; until then it is only pending. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last 30-second step a code was accepted for, so a code cannot be used twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The code of the user's referral link (/auth/register?ref=CODE), made the first time they ask for it. */
    referralCode: text('referral_code'),
    /** The address the account was registered from (a public one; null when unknown): referrals between accounts made from one earn nothing. */
    signupIp: text('signup_ip'),
    /** The browser the account was registered on (its device cookie): likewise. */
    signupDevice: text('signup_device'),
    /** When the owner proved the mailbox (a confirmation, reset or invitation link); null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Wrong two-factor codes since the last right one; enough of them lock two-factor sign-in until totp_locked_until. */
    totpFailures: smallint('totp_failures').notNull().default(0),
    totpLockedUntil: timestamp('totp_locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_username_key').on(t.username),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    index('users_created_at_idx').on(t.createdAt),
    // The administrators' user list sorted by name or by last sign-in (admin-users.ts SORTS), read a page at a time.
    index('users_name_idx').on(t.fullName, t.id),
    index('users_last_login_idx').on(sql`${t.lastLogin} desc nulls last`, t.id),
    // The administrators among 200,000 accounts: their list by name, the audit log's people (audit.ts), read without a scan.
    index('users_administrators_idx').on(t.fullName, t.id).where(sql`${t.userType} = 1`),
    // The suspended accounts, newest first, and their count: a few hundred among 200,000, each read off this small index.
    index('users_suspended_idx').on(t.createdAt, t.id).where(sql`${t.status} = 'suspended'`),
    // The administrators' user search matches anywhere in the name, email or username (admin-users.ts).
    index('users_full_name_trgm_idx').using('gin', sql`${t.fullName} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
    check('users_user_type_check', sql`${t.userType} in (1, 2)`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/** One row per sign-in; revoking it ends that sign-in's access and refresh tokens at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** The browser's device cookie at sign-in: a device the owner has signed in from before is known. */
    device: text('device'),
  },
  // The retention job's order (worker/services/oversight/retention.ts): sessions long past their expiry first.
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Refresh tokens are stored only as SHA-256 hashes; a used one that comes back revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId), index('refresh_tokens_created_idx').on(t.createdAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'promote' links also make the account an administrator when used (an invitation to an existing account). */
    purpose: text('purpose', { enum: ['reset', 'promote'] })
      .notNull()
      .default('reset'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.expiresAt)],
);

/** Links that confirm a mailbox: `email` is the address the link was sent to, which becomes the account's when used. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId), index('email_verifications_expires_idx').on(t.expiresAt)],
);

/**
 * Wrong passwords counted per account and address (or known device), each run of them blocking only that
 * pair for a growing delay: a stranger's guesses never lock the owner out of their own device or address.
 */
export const signInFailures = pgTable('sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }).notNull(),
});

/** One-time codes that stand in for an authenticator app, stored as hashes; a new set replaces the old. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/** Fixed-window counters; Workers isolates share no memory, so the database keeps them. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
    hits: integer('hits').notNull().default(0),
  },
  // The retention job forgets rows whose window ended long ago, oldest first.
  (t) => [index('rate_limits_window_start_idx').on(t.windowStart)],
);

/**
 * Keys of the reseller API (/api/v2). A key is 256 random bits shown once, so its SHA-256 is all that
 * is kept; `prefix` (its first characters) lets people tell keys apart. Rotation replaces the hash
 * and prefix in place and renews created_at, so created_at is when the current secret was issued.
 * Keys of a suspended user stay in place and stop at once: every call checks the owner's status.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** When the key last sent add, refill or cancel over GET (the key then rides in URLs that servers log); the API page says so. */
    lastGetWriteAt: timestamp('last_get_write_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why the key stopped: its owner revoked it, or a password reset, change or promotion took every way in back. */
    revokedReason: text('revoked_reason', { enum: ['owner', 'password_reset', 'password_change', 'promotion'] }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/** Mail the email adapter sent (or, locally, only recorded): the local stack's inbox. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('email_outbox_to_idx').on(t.toAddress),
    // The retention job forgets mail sent long ago; unsent mail is not in this index.
    index('email_outbox_sent_idx').on(t.sentAt).where(sql`${t.sentAt} is not null`),
  ],
);

// ---------------------------------------------------------------- money

export const wallets = pgTable(
  'wallets',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceKobo: kobo('balance_kobo').notNull().default(sql`0`),
    /** What a chargeback took back beyond the balance: blocks orders, and the next deposits settle it first. */
    debtKobo: kobo('debt_kobo').notNull().default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('wallets_balance_non_negative', sql`${t.balanceKobo} >= 0`),
    check('wallets_debt_non_negative', sql`${t.debtKobo} >= 0`),
    // The administrators' accounts by balance (admin-users.ts) read their page from here instead of sorting every
    // wallet (at 200,000 accounts the call took 176-203 ms, 116 with it). Each money movement then updates its wallet
    // row without HOT (this index and the key get an entry); `npm run bench`'s orders measured no slower for it.
    index('wallets_balance_idx').on(sql`${t.balanceKobo} desc`, t.userId),
    // The recent reconciliation (reconciliation-ledger.ts) finds the wallets written since its last clean run here
    // rather than by reading all 200,000 (the call at full volume took 262-284 ms, 223-236 with it).
    index('wallets_updated_at_idx').on(t.updatedAt),
  ],
);

/**
 * The ledger. Every balance change is one row here, written in the same transaction as
 * the balance update. (source_kind, source_ref) is unique, so each outside event
 * (a payment reference, an admin credit reference, an order refund) moves money once.
 */
export const walletTransactions = pgTable(
  'wallet_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    transactionType: smallint('transaction_type').notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
    balanceAfterKobo: kobo('balance_after_kobo').notNull(),
    sourceKind: text('source_kind').notNull(),
    sourceRef: text('source_ref').notNull(),
    description: text('description').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wallet_transactions_source_key').on(t.sourceKind, t.sourceRef),
    // A user's ledger newest first (created_at desc, id desc): a deep page read straight off the index.
    index('wallet_transactions_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('wallet_transactions_created_idx').on(t.createdAt),
    // The administrators' ledger filtered by source, newest first (wallet.ts ledgerPage): the page read straight off the index.
    index('wallet_transactions_source_created_idx').on(t.sourceKind, t.createdAt, t.id),
    // The administrators' ledger search matches anywhere in the reference or the description (wallet.ts transactionFilter).
    index('wallet_transactions_search_trgm_idx').using('gin', sql`${t.sourceRef} gin_trgm_ops`, sql`${t.description} gin_trgm_ops`),
    // Each user's ledger in order with what the reconciliation checks of each row (reconciliation-ledger.ts): the full
    // run reads every row from this index alone and the recent run each new row's predecessor, without a heap read for
    // each (a heavy reseller's rows lie spread over a year of pages). The ordering is (user_id, id); the rest rides along.
    index('wallet_transactions_user_id_idx').on(t.userId, t.id, t.balanceAfterKobo, t.transactionType, t.amountKobo),
    check('wallet_transactions_type_check', sql`${t.transactionType} in (1, 2)`),
    check('wallet_transactions_amount_positive', sql`${t.amountKobo} > 0`),
    check('wallet_transactions_balance_after_non_negative', sql`${t.balanceAfterKobo} >= 0`),
  ],
);

/**
 * What a user's ledger adds up to per kind of money (source_kind): the sum of amount_kobo of its rows, kept by
 * the ledger's own statement (money/ledger.ts ledgerEntrySteps), so a heavy reseller's wallet summary reads a
 * few rows instead of every ledger row they ever had. Derived from wallet_transactions, never the other way.
 */
export const walletLedgerSums = pgTable(
  'wallet_ledger_sums',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceKind: text('source_kind').notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sourceKind] })],
);

export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /**
     * How the money came: 'card' through a checkout we started (reference ours), or 'bank_transfer' to the
     * user's dedicated account (reference the provider's, recorded when its verified webhook arrives).
     */
    channel: text('channel', { enum: ['card', 'bank_transfer'] })
      .notNull()
      .default('card'),
    amountKobo: kobo('amount_kobo').notNull(),
    currency: text('currency').notNull().default('NGN'),
    status: text('status', { enum: ['pending', 'success', 'failed'] })
      .notNull()
      .default('pending'),
    checkoutUrl: text('checkout_url'),
    providerStatus: text('provider_status'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    /**
     * The payment's one state of reversal: what its refunds and disputes have taken back from the payer's wallet
     * (from the balance, or as debt) net of what was given back. Never more than the payment (chargebacks.ts).
     */
    reversedKobo: kobo('reversed_kobo').notNull().default(sql`0`),
    /** The card or bank account that paid, as the provider fingerprints it: accounts sharing one earn no commission from each other. */
    payerFingerprint: text('payer_fingerprint'),
  },
  (t) => [
    uniqueIndex('payment_intents_reference_key').on(t.reference),
    index('payment_intents_user_idx').on(t.userId, t.createdAt),
    index('payment_intents_pending_idx').on(t.status, t.createdAt),
    // The reconciliation reads the payments settled since its last clean run, and re-asks the providers about the newest.
    index('payment_intents_settled_idx').on(t.settledAt).where(sql`${t.status} = 'success'`),
    index('payment_intents_fingerprint_idx').on(t.payerFingerprint),
    check('payment_intents_amount_positive', sql`${t.amountKobo} > 0`),
    check('payment_intents_reversed_check', sql`${t.reversedKobo} >= 0 and ${t.reversedKobo} <= ${t.amountKobo}`),
  ],
);

/**
 * A refund or dispute (chargeback) of a payment, as the provider reports it. (provider, event_key) is unique, so
 * a replayed webhook adds nothing. amount_kobo is the provider's current figure (a dispute accepted for less
 * carries the accepted amount). What it moved is in payment_reversal_moves.
 */
export const paymentReversals = pgTable(
  'payment_reversals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    intentId: bigint('intent_id', { mode: 'number' })
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    kind: text('kind', { enum: ['refund', 'dispute'] }).notNull(),
    eventKey: text('event_key').notNull(),
    status: text('status', { enum: REVERSAL_STATUSES }).notNull(),
    amountKobo: kobo('amount_kobo').notNull(),
    providerDetails: jsonb('provider_details').notNull().default({}),
    /** When the provider wants the shop's answer to a dispute (evidence or acceptance), as it said; null when it did not. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_reversals_event_key').on(t.provider, t.eventKey),
    index('payment_reversals_user_idx').on(t.userId, t.createdAt),
    index('payment_reversals_intent_idx').on(t.intentId),
    check('payment_reversals_amount_check', sql`${t.amountKobo} >= 0`),
  ],
);

/**
 * What one step of a reversal (its arrival, or its dispute's verdict) moved in one wallet: the payer's, for the
 * payment, or the referrer's, for the commission the payment paid. A take has taken (from the balance) + debt > 0,
 * a give-back has returned > 0. (reversal, step, party) is unique, so each step moves each wallet once; ledger_ref
 * names its ledger rows ('chargeback'/'chargeback_return' for the payer, 'commission_reversal'/'commission_return'
 * for the referrer).
 */
export const paymentReversalMoves = pgTable(
  'payment_reversal_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reversalId: bigint('reversal_id', { mode: 'number' })
      .notNull()
      .references(() => paymentReversals.id, { onDelete: 'restrict' }),
    intentId: bigint('intent_id', { mode: 'number' })
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    party: text('party', { enum: ['payer', 'referrer'] }).notNull(),
    step: text('step', { enum: REVERSAL_STATUSES }).notNull(),
    takenKobo: kobo('taken_kobo').notNull().default(sql`0`),
    debtKobo: kobo('debt_kobo').notNull().default(sql`0`),
    returnedKobo: kobo('returned_kobo').notNull().default(sql`0`),
    ledgerRef: text('ledger_ref').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_reversal_moves_step_key').on(t.reversalId, t.step, t.party),
    index('payment_reversal_moves_intent_idx').on(t.intentId),
    index('payment_reversal_moves_user_idx').on(t.userId),
    check(
      'payment_reversal_moves_amounts_check',
      sql`${t.takenKobo} >= 0 and ${t.debtKobo} >= 0 and ${t.returnedKobo} >= 0 and ((${t.takenKobo} + ${t.debtKobo} > 0 and ${t.returnedKobo} = 0) or (${t.returnedKobo} > 0 and ${t.takenKobo} + ${t.debtKobo} = 0))`,
    ),
  ],
);

// ---------------------------------------------------------------- administration

/** Site and payment settings as small JSON documents keyed by name. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  // The audit log page filters by administrator and by what was changed, newest first, at any age of the log.
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.createdAt),
  ],
);

/**
 * An administrator's CSV of the ledger, written by the admin-jobs queue (services/money/ledger-export-jobs.ts): a
 * year's ledger is too long a file to write in a request. The file itself is in R2 (EXPORT_FILES), gzipped; the
 * retention job forgets both a day later.
 */
export const ledgerExports = pgTable(
  'ledger_exports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The Transactions screen's filters (AdminTransactionExportInput). */
    filters: jsonb('filters').notNull(),
    state: text('state').notNull().default('queued'),
    rowCount: integer('row_count'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [check('ledger_exports_state_check', sql`${t.state} in ('queued', 'running', 'done', 'failed')`), index('ledger_exports_created_idx').on(t.createdAt)],
);

// ---------------------------------------------------------------- catalogue and orders

/** Cached USD-based exchange rates: units of `currency` per 1 USD, at scale 6. */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    currency: text('currency').primaryKey(),
    perUsdMicros: bigint('per_usd_micros', { mode: 'bigint' }).notNull(),
    sourceUpdatedAt: timestamp('source_updated_at', { withTimezone: true }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    /** A rate the service gave outside the accepted band: held for an administrator to accept or reject. */
    proposedPerUsdMicros: bigint('proposed_per_usd_micros', { mode: 'bigint' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }),
  },
  (t) => [check('exchange_rates_positive', sql`${t.perUsdMicros} > 0 and (${t.proposedPerUsdMicros} is null or ${t.proposedPerUsdMicros} > 0)`)],
);

/** Upstream SMM panels (API v2). The key is stored only encrypted with ENCRYPTION_KEY. */
export const providers = pgTable(
  'providers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    apiUrl: text('api_url').notNull(),
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    /** The secret a panel like ours signs its webhooks with, encrypted like the key; null = it sends none, so polling alone follows its orders. */
    webhookSecretEncrypted: text('webhook_secret_encrypted'),
    /** The currency the panel prices and charges in. */
    currency: text('currency').notNull().default('USD'),
    timeoutMs: integer('timeout_ms').notNull().default(15_000),
    enabled: boolean('enabled').notNull().default(true),
    /** Alert when the balance drops below this (micro-units of `currency`); null = no alert. */
    lowBalanceMicros: bigint('low_balance_micros', { mode: 'bigint' }),
    balanceMicros: bigint('balance_micros', { mode: 'bigint' }),
    balanceCheckedAt: timestamp('balance_checked_at', { withTimezone: true }),
    catalogueSyncedAt: timestamp('catalogue_synced_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** Set while none of the provider's answers can be read; cleared by its next readable answer. */
    unhealthySince: timestamp('unhealthy_since', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('providers_name_key').on(t.name), check('providers_timeout_check', sql`${t.timeoutMs} between 1000 and 60000`)],
);

export const serviceCategories = pgTable(
  'service_categories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    platform: text('platform').notNull().default('Other'),
    /** Markup in basis points for the category's services that do not set their own; null = the global one. */
    markupBps: integer('markup_bps'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('service_categories_name_key').on(t.name), check('service_categories_markup_check', sql`${t.markupBps} is null or ${t.markupBps} >= 0`)],
);

/**
 * What the shop sells. rate_kobo (naira kobo per 1000, per package for packages) is the price
 * charged; cost_kobo is the provider's price converted at the cached rate, rounded up. In
 * 'markup' mode the price follows the cost; in 'fixed' mode it stays until the margin guard moves it.
 */
export const services = pgTable(
  'services',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'restrict' }),
    providerServiceId: text('provider_service_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    categoryId: integer('category_id')
      .notNull()
      .references(() => serviceCategories.id, { onDelete: 'restrict' }),
    type: text('type').notNull().default('Default'),
    /** The provider's price per 1000 in micro-units of the provider's currency. */
    providerRateMicros: bigint('provider_rate_micros', { mode: 'bigint' }).notNull(),
    costKobo: kobo('cost_kobo').notNull(),
    rateKobo: kobo('rate_kobo').notNull(),
    priceMode: text('price_mode', { enum: PRICE_MODES }).notNull().default('markup'),
    /** Own markup in basis points; null = the category's or the global one. */
    markupBps: integer('markup_bps'),
    min: integer('min').notNull(),
    max: integer('max').notNull(),
    providerMin: integer('provider_min').notNull(),
    providerMax: integer('provider_max').notNull(),
    refill: boolean('refill').notNull().default(false),
    cancel: boolean('cancel').notNull().default(false),
    dripfeed: boolean('dripfeed').notNull().default(false),
    /** Days after completion a refill may be asked for ("Refill 30D"); null: the service sets no window. */
    refillDays: integer('refill_days'),
    /** An administrator set refill_days by hand, so the catalogue sync leaves it alone. */
    refillDaysByAdmin: boolean('refill_days_by_admin').notNull().default(false),
    /** Refills one order may have (those the provider refused do not count), one at a time: leading panels allow three. */
    maxRefills: integer('max_refills').notNull().default(3),
    /** A provider price the sync did not believe (0, missing, or too far from the last): held until an administrator accepts it. */
    proposedProviderRateMicros: bigint('proposed_provider_rate_micros', { mode: 'bigint' }),
    /** What the service's link is, a URL or a username; null: decided from its type and category. */
    linkKind: text('link_kind', { enum: LINK_KINDS }),
    enabled: boolean('enabled').notNull().default(true),
    /** Why a service is off (DISABLED_REASONS). */
    disabledReason: text('disabled_reason', { enum: DISABLED_REASONS }),
    /** Mean time from submission to completion of our own recent completed orders. */
    averageTimeSeconds: integer('average_time_seconds'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('services_provider_service_key').on(t.providerId, t.providerServiceId),
    index('services_category_idx').on(t.categoryId, t.id),
    index('services_enabled_idx').on(t.enabled, t.id),
    index('services_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    check('services_rate_check', sql`${t.rateKobo} > 0 and ${t.costKobo} >= 0 and ${t.providerRateMicros} >= 0`),
    check('services_range_check', sql`${t.min} >= 1 and ${t.max} >= ${t.min}`),
    check('services_markup_check', sql`${t.markupBps} is null or ${t.markupBps} >= 0`),
    check('services_refill_days_check', sql`${t.refillDays} is null or ${t.refillDays} > 0`),
    check('services_max_refills_check', sql`${t.maxRefills} between 1 and 100`),
  ],
);

/**
 * One row: a number that moves with every committed change to what the public service list shows,
 * so a Worker isolate knows when its copy of the list is stale (catalogue-snapshot.ts). Moved by the
 * triggers of migration 0008 on services, service_categories and providers' `enabled`, at commit.
 */
export const catalogueVersion = pgTable(
  'catalogue_version',
  {
    id: boolean('id').primaryKey().default(true),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('catalogue_version_one_row', sql`${t.id}`)],
);

/**
 * The administrators' dashboard's figures per UTC day, so a period's chart reads a few hundred rows whatever the
 * shop's age. Kept by the statements that write orders, payments, the ledger and users: triggers of migration 0019
 * add each statement's change to dashboard_day_changes (inserts only, so writers never wait on each other), and
 * the cron folds those into dashboard_days (dashboard-rollups.ts). The dashboard reads both. order_status is the
 * orders' status for what orders add, '' for the rest. Figures as admin-dashboard.ts defines them.
 */
const dashboardFigures = {
  day: date('day', { mode: 'string' }).notNull(),
  orderStatus: text('order_status').notNull().default(''),
  /** Successful payments by their settled day, net of what their refunds and disputes took back. */
  depositsKobo: kobo('deposits_kobo').notNull().default(sql`0`),
  bankTransfersKobo: kobo('bank_transfers_kobo').notNull().default(sql`0`),
  reversedKobo: kobo('reversed_kobo').notNull().default(sql`0`),
  adminCreditsKobo: kobo('admin_credits_kobo').notNull().default(sql`0`),
  /** Orders by their placing day: charged less refunded, and the provider cost of that part. */
  spendKobo: kobo('spend_kobo').notNull().default(sql`0`),
  costKobo: kobo('cost_kobo').notNull().default(sql`0`),
  orders: integer('orders').notNull().default(0),
  newUsers: integer('new_users').notNull().default(0),
};

export const dashboardDays = pgTable('dashboard_days', dashboardFigures, (t) => [primaryKey({ columns: [t.day, t.orderStatus] })]);

export const dashboardDayChanges = pgTable('dashboard_day_changes', { id: bigserial('id', { mode: 'number' }).primaryKey(), ...dashboardFigures });

/** What the syncs want an administrator to see: margin guard actions, vanished services, provider trouble, orders to check. */
export const catalogueWarnings = pgTable(
  'catalogue_warnings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: WARNING_KINDS }).notNull(),
    providerId: integer('provider_id').references(() => providers.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id').references(() => services.id, { onDelete: 'cascade' }),
    orderId: integer('order_id'),
    message: text('message').notNull(),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    /** Recorded by recordWarningOnce: one unread at a time for its kind, provider and order, however many runs race to record it. */
    recordedOnce: boolean('recorded_once').notNull().default(false),
  },
  (t) => [
    index('catalogue_warnings_open_idx').on(t.acknowledgedAt, t.createdAt),
    uniqueIndex('catalogue_warnings_once_unread_key')
      .on(t.kind, sql`coalesce(provider_id, 0)`, sql`coalesce(order_id, 0)`)
      .where(sql`recorded_once and acknowledged_at is null`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'restrict' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'restrict' }),
    providerServiceId: text('provider_service_id').notNull(),
    /** The service's name when ordered, so later renames do not rewrite history. */
    serviceName: text('service_name').notNull(),
    link: text('link').notNull(),
    /** Quantity per run as the user gave it (per post for subscriptions, packages for packages). */
    quantity: integer('quantity').notNull(),
    /** Units the provider delivers and reports `remains` against (quantity × runs, …). */
    deliverable: integer('deliverable').notNull(),
    /** The type's extra fields as sent to the provider (comments, runs, interval, username, …). */
    extras: jsonb('extras').notNull().default({}),
    rateKobo: kobo('rate_kobo').notNull(),
    costKobo: kobo('cost_kobo').notNull(),
    chargeKobo: kobo('charge_kobo').notNull(),
    refundedKobo: kobo('refunded_kobo').notNull().default(sql`0`),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('Pending Submission'),
    /** Why an order was canceled or held, in words a user can read. */
    statusReason: text('status_reason'),
    submission: text('submission', { enum: SUBMISSION_STATES }).notNull().default('queued'),
    submissionError: text('submission_error'),
    submitAttempts: integer('submit_attempts').notNull().default(0),
    submissionStartedAt: timestamp('submission_started_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    providerOrderId: text('provider_order_id'),
    startCount: integer('start_count'),
    remains: integer('remains'),
    /** What the provider says it charged for the order, in micro-units of its currency, when it says. */
    providerChargeMicros: bigint('provider_charge_micros', { mode: 'bigint' }),
    /** The provider's last answer about this order that we could not act on, for people to read. */
    providerNote: text('provider_note'),
    /** Syncs in a row whose answer for this order could not be read; past a limit it needs attention. */
    unreadableSyncs: integer('unreadable_syncs').notNull().default(0),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key'),
    /** The key of the reseller API call that placed the order; null for orders placed in the SPA (mass orders too). */
    apiKeyId: integer('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('orders_provider_order_key').on(t.providerId, t.providerOrderId),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    // A user's orders in one status newest first, and how many in each (the user detail's counts, a reseller's open
    // orders): a heavy reseller's 100,000 orders are not read to find the few in a status.
    index('orders_user_status_created_idx').on(t.userId, t.status, t.createdAt),
    index('orders_created_idx').on(t.createdAt),
    index('orders_service_idx').on(t.serviceId),
    index('orders_status_idx').on(t.status, t.createdAt),
    index('orders_sync_idx')
      .on(t.providerId, t.lastSyncedAt)
      .where(sql`${t.submission} = 'accepted' and ${t.status} in ('Pending', 'In progress', 'Processing')`),
    index('orders_submission_idx').on(t.providerId, t.submission).where(sql`${t.submission} in ('queued', 'sending', 'unknown')`),
    // The open orders in the order they opened: the dashboard reads its stuck orders oldest first and stops at its cap.
    index('orders_open_since_idx')
      .on(sql`coalesce(${t.submittedAt}, ${t.createdAt})`, t.id)
      .where(sql`${t.status} in ('Pending Submission', 'Pending', 'In progress', 'Processing')`),
    // The few open orders a provider has given no usable answer for NEEDS_ATTENTION_AFTER (12) syncs in a row: the
    // dashboard's provider health counts them on every load.
    index('orders_needs_attention_idx')
      .on(t.providerId)
      .where(sql`${t.submission} = 'accepted' and ${t.status} in ('Pending', 'In progress', 'Processing') and ${t.unreadableSyncs} >= 12`),
    index('orders_link_trgm_idx').using('gin', sql`${t.link} gin_trgm_ops`),
    check('orders_amounts_check', sql`${t.chargeKobo} > 0 and ${t.refundedKobo} >= 0 and ${t.refundedKobo} <= ${t.chargeKobo}`),
    check('orders_quantity_check', sql`${t.quantity} > 0 and ${t.deliverable} > 0`),
  ],
);

/** Refill requests forwarded to the provider; at most one open per order. */
export const orderRefills = pgTable(
  'order_refills',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    providerRefillId: text('provider_refill_id'),
    status: text('status', { enum: ['Requesting', 'Pending', 'In progress', 'Completed', 'Rejected', 'Canceled'] })
      .notNull()
      .default('Requesting'),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_refills_order_idx').on(t.orderId),
    uniqueIndex('order_refills_open_key').on(t.orderId).where(sql`${t.status} in ('Requesting', 'Pending', 'In progress')`),
  ],
);

// ---------------------------------------------------------------- support

/**
 * A user's support ticket, optionally about one of their orders or deposits. The unread flags
 * are per side: support's is one flag for the whole desk, so any administrator reading the
 * ticket clears it.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    kind: text('kind', { enum: TICKET_KINDS }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    paymentIntentId: bigint('payment_intent_id', { mode: 'number' }).references(() => paymentIntents.id, { onDelete: 'set null' }),
    status: text('status', { enum: TICKET_STATUSES }).notNull().default('Open'),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    userUnread: boolean('user_unread').notNull().default(false),
    adminUnread: boolean('admin_unread').notNull().default(true),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('tickets_user_idx').on(t.userId, t.lastMessageAt),
    index('tickets_user_unread_idx').on(t.userId).where(sql`${t.userUnread}`),
    index('tickets_last_message_idx').on(t.lastMessageAt),
    index('tickets_status_idx').on(t.status, t.lastMessageAt),
    index('tickets_admin_unread_idx').on(t.lastMessageAt).where(sql`${t.adminUnread}`),
    // The administrators' ticket search by subject (its other half, by owner, reads tickets_user_idx).
    index('tickets_subject_trgm_idx').using('gin', sql`${t.subject} gin_trgm_ops`),
    // For the foreign keys: deleting an order or a deposit finds its tickets without a scan.
    index('tickets_order_idx').on(t.orderId).where(sql`${t.orderId} is not null`),
    index('tickets_payment_intent_idx').on(t.paymentIntentId).where(sql`${t.paymentIntentId} is not null`),
    check('tickets_one_reference_check', sql`${t.orderId} is null or ${t.paymentIntentId} is null`),
  ],
);

/** The thread of a ticket, oldest first. from_staff tells the sides apart even once an author is deleted. */
export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    fromStaff: boolean('from_staff').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ticket_messages_ticket_idx').on(t.ticketId, t.id), check('ticket_messages_body_check', sql`char_length(${t.body}) between 1 and 5000`)],
);

// ---------------------------------------------------------------- funding by bank transfer

/**
 * A user's personal account number (Paystack Dedicated Virtual Account): transfers to it are the
 * user's deposits. One per user; the provider's customer code ties a transfer back to the user.
 */
export const dedicatedAccounts = pgTable(
  'dedicated_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerCode: text('customer_code').notNull(),
    /** Requested from the provider and not yet answered ('pending'), usable ('active'), or refused ('failed', with the reason). */
    status: text('status', { enum: ['pending', 'active', 'failed'] })
      .notNull()
      .default('pending'),
    accountNumber: text('account_number'),
    accountName: text('account_name'),
    bankName: text('bank_name'),
    providerAccountId: text('provider_account_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dedicated_accounts_customer_key').on(t.provider, t.customerCode),
    uniqueIndex('dedicated_accounts_number_key').on(t.provider, t.accountNumber),
  ],
);

// ---------------------------------------------------------------- referrals

/** A sign-up through someone's referral link. Voiding it stops commissions on later deposits. */
export const referrals = pgTable(
  'referrals',
  {
    referredUserId: integer('referred_user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    referrerId: integer('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: integer('voided_by').references(() => users.id, { onDelete: 'set null' }),
    voidReason: text('void_reason'),
  },
  (t) => [
    index('referrals_referrer_idx').on(t.referrerId, t.createdAt),
    // The administrators' referral list, newest first (referrals.ts listReferrals).
    index('referrals_created_idx').on(t.createdAt, t.referredUserId),
    check('referrals_not_self_check', sql`${t.referredUserId} <> ${t.referrerId}`),
  ],
);

/**
 * A commission earned on one deposit of a referred user. payment_intent_id is unique, so a deposit pays at most one.
 * It is held until release_at, then credited (source 'referral_commission', reference the deposit's) by the cron or,
 * with no hold, in the deposit's own transaction. It follows its deposit: reversed_kobo is its share of what the
 * deposit's refunds and disputes took back (ceil(commission × payment.reversed / payment)), and once released the
 * referrer's wallet holds commission − reversed from it (moves in payment_reversal_moves, party 'referrer').
 */
export const referralCommissions = pgTable(
  'referral_commissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    referrerId: integer('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredUserId: integer('referred_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    paymentIntentId: bigint('payment_intent_id', { mode: 'number' })
      .notNull()
      .references(() => paymentIntents.id, { onDelete: 'restrict' }),
    depositKobo: kobo('deposit_kobo').notNull(),
    commissionKobo: kobo('commission_kobo').notNull(),
    /** The commission rate applied, in basis points. */
    rateBps: integer('rate_bps').notNull(),
    createdAt: createdAt(),
    /** When the referrer may spend it: held until then. */
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was credited to the referrer's wallet; null while held. */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** What its release credited: the commission less what was already reversed then. */
    creditedKobo: kobo('credited_kobo').notNull().default(sql`0`),
    /** Its share of what the deposit's refunds and disputes took back. */
    reversedKobo: kobo('reversed_kobo').notNull().default(sql`0`),
  },
  (t) => [
    uniqueIndex('referral_commissions_intent_key').on(t.paymentIntentId),
    index('referral_commissions_referrer_idx').on(t.referrerId, t.createdAt),
    // A referral's commissions, summed for each row of the administrators' referral list (referrals.ts listReferrals).
    index('referral_commissions_referred_idx').on(t.referredUserId),
    index('referral_commissions_held_idx').on(t.releaseAt).where(sql`${t.releasedAt} is null`),
    check('referral_commissions_amounts_check', sql`${t.depositKobo} > 0 and ${t.commissionKobo} > 0 and ${t.rateBps} > 0`),
    check(
      'referral_commissions_follow_check',
      sql`${t.reversedKobo} >= 0 and ${t.reversedKobo} <= ${t.commissionKobo} and ${t.creditedKobo} >= 0 and ${t.creditedKobo} <= ${t.commissionKobo}`,
    ),
  ],
);

// ---------------------------------------------------------------- notifications

/**
 * What happened that a user is told about: shown in the bell, and emailed unless the user turned
 * the kind off. (kind, event_key) is unique, so an event is told once however often it is seen.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    /** Names the event within its kind (an order id, a payment reference, a ticket message id). */
    eventKey: text('event_key').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Where in the SPA the event is seen (e.g. /user/orders). */
    link: text('link'),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** pending: to be emailed; sent; skipped: the user had the kind turned off when it was due. */
    emailState: text('email_state', { enum: ['pending', 'sent', 'skipped'] })
      .notNull()
      .default('pending'),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_event_key').on(t.kind, t.eventKey),
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_email_pending_idx').on(t.id).where(sql`${t.emailState} = 'pending'`),
    // The retention job forgets old read ones; unread ones are not in this index.
    index('notifications_read_created_idx').on(t.createdAt).where(sql`${t.readAt} is not null`),
  ],
);

/** A user's choices; no row means every email on, no low-balance alert and no summary of API orders. */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Kinds the user does not want emailed. */
    emailOff: jsonb('email_off').$type<string[]>().notNull().default([]),
    /** Alert when the balance drops below this; null: no alert. */
    lowBalanceKobo: kobo('low_balance_kobo'),
    /** Set once the alert went out; cleared when the balance is back at or above the threshold. */
    lowBalanceAlertedAt: timestamp('low_balance_alerted_at', { withTimezone: true }),
    /** Orders placed through the API are told in one daily summary (bell and email) when on; when off, not at all. */
    apiOrderDigest: boolean('api_order_digest').notNull().default(false),
    /** The summaries cover API orders closed before this (a Lagos midnight); null while they are off. */
    apiDigestThrough: timestamp('api_digest_through', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('notification_settings_low_balance_check', sql`${t.lowBalanceKobo} is null or ${t.lowBalanceKobo} > 0`)],
);

// ---------------------------------------------------------------- favourites

/** Services a user starred, for the Favorites screen. */
export const favorites = pgTable(
  'favorites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serviceId] })],
);

// ---------------------------------------------------------------- reseller webhooks

/** Where a reseller wants events posted, signed with the endpoint's own secret (encrypted at rest, shown once). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The WEBHOOK_EVENTS it is sent. */
    events: jsonb('events').$type<string[]>().notNull(),
    secretCiphertext: text('secret_ciphertext').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
);

/**
 * One event for one endpoint. The triggers of migration 0013 write a row, with what happened in `subject`, in the
 * statement that changes an order's protocol status, a refill's status or arms the low-balance alert; the cron then
 * writes its body once (so every retry is signed over the same bytes) and queues it; the queue's consumer posts it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    subject: jsonb('subject').$type<Record<string, unknown>>().notNull(),
    /** The exact JSON posted, fixed before the first try. */
    body: text('body'),
    state: text('state', { enum: WEBHOOK_DELIVERY_STATES }).notNull().default('new'),
    attempts: integer('attempts').notNull().default(0),
    /** The endpoint's HTTP status on the last try, or null when it could not be reached. */
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: createdAt(),
    /** When it was last handed to the queue: one sending with neither this nor a try for hours lost its message. */
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    // The cron's work: new ones to queue, and those sending whose queue message may be lost.
    index('webhook_deliveries_open_idx').on(t.state, t.id).where(sql`${t.state} in ('new', 'sending')`),
  ],
);
