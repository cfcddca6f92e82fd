// Profiles: what a signed-in person and the admins see of an account.
import { and, eq, sql } from 'drizzle-orm';
import { users, wallets } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { UpdateProfileInput } from '../../schemas/auth';

/** The account fields every answer shares (spec section 3's User). */
export interface PublicUser {
  id: number;
  fullName: string;
  email: string;
  username: string;
  userType: number;
  status: 'active' | 'suspended';
  /** Whether the owner proved the mailbox: until then no API keys, referral commission or administrator role. */
  emailVerified: boolean;
  created_at: string;
  last_login: string | null;
}

export interface Profile extends PublicUser {
  wallet: { balance: string };
}

type UserRow = Pick<
  typeof users.$inferSelect,
  'id' | 'fullName' | 'email' | 'username' | 'userType' | 'status' | 'emailVerifiedAt' | 'createdAt' | 'lastLogin'
>;

export const publicUserColumns = {
  id: users.id,
  fullName: users.fullName,
  email: users.email,
  username: users.username,
  userType: users.userType,
  status: users.status,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  lastLogin: users.lastLogin,
};

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    username: row.username,
    userType: row.userType,
    status: row.status,
    emailVerified: row.emailVerifiedAt !== null,
    created_at: row.createdAt.toISOString(),
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
  };
}

export function toProfile(user: PublicUser, balanceKobo: bigint): Profile {
  return { ...user, wallet: { balance: koboToNaira(balanceKobo) } };
}

export async function getProfile(db: DbOrTx, userId: number): Promise<Profile> {
  const [row] = await db
    .select({ ...publicUserColumns, balanceKobo: sql<string>`coalesce(${wallets.balanceKobo}, 0)` })
    .from(users)
    .leftJoin(wallets, eq(wallets.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return toProfile(toPublicUser(row), BigInt(row.balanceKobo));
}

export async function updateProfile(db: DbOrTx, userId: number, input: UpdateProfileInput): Promise<Profile> {
  const current = await getProfile(db, userId);
  if (input.email.toLowerCase() !== current.email) throw invalid('Email address cannot be changed');
  const username = input.username.toLowerCase();
  const updated = await db
    .update(users)
    .set({ fullName: input.fullName, username, updatedAt: new Date() })
    .where(and(eq(users.id, userId), sql`not exists (select 1 from ${users} other where other.username = ${username} and other.id <> ${userId})`))
    .returning({ id: users.id });
  if (updated.length === 0) throw conflict('Username is already taken');
  return { ...current, fullName: input.fullName, username };
}

/** A readable, unique-looking handle from the email's local part; callers retry on a clash. */
export function usernameCandidate(email: string, attempt: number): string {
  const base =
    email
      .split('@')[0]
      .toLowerCase()
      .replace(/[^a-z0-9_.]/g, '')
      .slice(0, 20) || 'user';
  if (attempt === 0) return base;
  const suffix = crypto.getRandomValues(new Uint32Array(1))[0] % 10_000;
  return `${base}${String(suffix).padStart(4, '0')}`;
}
