// The single source of the database tables. `npm run db:generate` turns changes here
// into SQL under migrations/, which is committed and applied by `npm start`, the tests and deploys.
import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const kobo = (name: string) => bigint(name, { mode: 'bigint' });

export const USER_TYPE = { admin: 1, user: 2 } as const;
export const TRANSACTION_TYPE = { deposit: 1, withdrawal: 2 } as const;

// ---------------------------------------------------------------- accounts

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  userType: smallint('user_type').notNull().default(USER_TYPE.user),
  status: text('status', { enum: ['active', 'suspended'] }).notNull().default('active'),
  lastLogin: timestamp('last_login', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('users_email_key').on(t.email),
  uniqueIndex('users_username_key').on(t.username),
  index('users_created_at_idx').on(t.createdAt),
  check('users_user_type_check', sql`${t.userType} in (1, 2)`),
  check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
]);

/** One row per sign-in; revoking it ends that sign-in's access and refresh tokens at once. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  userAgent: text('user_agent'),
  ip: text('ip'),
}, (t) => [index('sessions_user_idx').on(t.userId)]);

/** Refresh tokens are stored only as SHA-256 hashes; a used one that comes back revokes its session. */
export const refreshTokens = pgTable('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  sessionId: uuid('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  usedAt: timestamp('used_at', { withTimezone: true }),
}, (t) => [index('refresh_tokens_session_idx').on(t.sessionId)]);

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
}, (t) => [index('password_resets_user_idx').on(t.userId)]);

/** Fixed-window counters; Workers isolates share no memory, so the database keeps them. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  hits: integer('hits').notNull().default(0),
});

/** Mail the email adapter sent (or, locally, only recorded): the local stack's inbox. */
export const emailOutbox = pgTable('email_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (t) => [index('email_outbox_to_idx').on(t.toAddress)]);

// ---------------------------------------------------------------- money

export const wallets = pgTable('wallets', {
  userId: integer('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  balanceKobo: kobo('balance_kobo').notNull().default(sql`0`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [check('wallets_balance_non_negative', sql`${t.balanceKobo} >= 0`)]);

/**
 * The ledger. Every balance change is one row here, written in the same transaction as
 * the balance update. (source_kind, source_ref) is unique, so each outside event
 * (a payment reference, an admin credit reference, an order refund) moves money once.
 */
export const walletTransactions = pgTable('wallet_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  transactionType: smallint('transaction_type').notNull(),
  amountKobo: kobo('amount_kobo').notNull(),
  balanceAfterKobo: kobo('balance_after_kobo').notNull(),
  sourceKind: text('source_kind').notNull(),
  sourceRef: text('source_ref').notNull(),
  description: text('description').notNull(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('wallet_transactions_source_key').on(t.sourceKind, t.sourceRef),
  index('wallet_transactions_user_created_idx').on(t.userId, t.createdAt),
  index('wallet_transactions_created_idx').on(t.createdAt),
  check('wallet_transactions_type_check', sql`${t.transactionType} in (1, 2)`),
  check('wallet_transactions_amount_positive', sql`${t.amountKobo} > 0`),
  check('wallet_transactions_balance_after_non_negative', sql`${t.balanceAfterKobo} >= 0`),
]);

export const paymentIntents = pgTable('payment_intents', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  reference: text('reference').notNull(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  amountKobo: kobo('amount_kobo').notNull(),
  currency: text('currency').notNull().default('NGN'),
  status: text('status', { enum: ['pending', 'success', 'failed'] }).notNull().default('pending'),
  checkoutUrl: text('checkout_url'),
  providerStatus: text('provider_status'),
  createdAt: createdAt(),
  settledAt: timestamp('settled_at', { withTimezone: true }),
  lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('payment_intents_reference_key').on(t.reference),
  index('payment_intents_user_idx').on(t.userId, t.createdAt),
  index('payment_intents_pending_idx').on(t.status, t.createdAt),
  check('payment_intents_amount_positive', sql`${t.amountKobo} > 0`),
]);

// ---------------------------------------------------------------- administration

/** Site and payment settings as small JSON documents keyed by name. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
  action: text('action').notNull(),
  targetType: text('target_type').notNull(),
  targetId: text('target_id'),
  details: jsonb('details').notNull().default({}),
  createdAt: createdAt(),
}, (t) => [index('audit_log_created_idx').on(t.createdAt)]);
