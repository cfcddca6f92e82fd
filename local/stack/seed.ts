// Idempotent seed for the local stack (and the first-admin bootstrap in production):
// one administrator, and default settings. Runs the Worker's own services through the Neon driver.
import { and, eq } from 'drizzle-orm';
import { users } from '../../drizzle/schema';
import { USER_TYPE } from '../../vocabulary';
import type { Db } from '../../worker/db';
import { hashPassword, registerUser } from '../../worker/services/accounts';

export interface AdminSeed {
  email: string;
  /** When given, the administrator's password is set to it; otherwise a random one is made on first boot only. */
  password?: string;
}

export async function seedAdmin(db: Db, admin: AdminSeed): Promise<{ created: boolean; password?: string }> {
  const email = admin.email.toLowerCase();
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), eq(users.userType, USER_TYPE.admin)));
  if (existing) {
    if (admin.password)
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(admin.password) })
        .where(eq(users.id, existing.id));
    return { created: false };
  }
  const password = admin.password ?? randomPassword();
  const created = await registerUser(db, { fullName: 'Administrator', email, password }, USER_TYPE.admin);
  // The operator chose this address for the shop's own administrator: it is theirs.
  await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, created.id));
  return { created: true, password };
}

function randomPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => alphabet[byte % alphabet.length]).join('');
}
