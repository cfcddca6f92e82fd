// A session that may act now: not revoked, not expired. The session check of every private call (middleware/auth.ts)
// reads it this way, and so does the order placing statement, which checks a customer's session itself so that
// placing an order is one round trip.
import { and, eq, gt, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { sessions, users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';

// The ids may be placeholders of a statement built once (the order placing one), so the clock is the database's.
export const liveSession = (sessionId: string | Placeholder, userId: number | Placeholder): SQL =>
  and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)) as SQL;

/** One row when the session is live and its account an active customer's, as the customers' guard admits them. */
export const liveCustomerSession = (sessionId: string | Placeholder, userId: number | Placeholder): SQL => sql`
  select 1 from ${sessions} join ${users} on ${users.id} = ${sessions.userId}
  where ${liveSession(sessionId, userId)} and ${users.status} = 'active' and ${users.userType} = ${USER_TYPE.user}`;
