// First-administrator bootstrap for a deployed shop:
//   DATABASE_URL=... ADMIN_EMAIL=you@example.com ADMIN_PASSWORD=... npm run admin:create
// Against `npm start`'s Postgres, which the Neon driver reaches only through the stack's stand-ins for
// Neon's endpoints, name them too (README, "npm start"): DB_HTTP_ENDPOINT=http://127.0.0.1:5490/sql
// (SQL over HTTP, every statement) and DB_WS_PROXY=127.0.0.1:5489/v1 (the WebSocket bridge, transactions).
import { openDatabase } from '../stack/node-db';
import { seedAdmin } from '../stack/seed';

const { DATABASE_URL, DB_WS_PROXY, DB_HTTP_ENDPOINT, ADMIN_EMAIL, ADMIN_PASSWORD } = process.env;
if (!DATABASE_URL || !ADMIN_EMAIL || !ADMIN_PASSWORD || ADMIN_PASSWORD.length < 12) {
  console.error('Set DATABASE_URL, ADMIN_EMAIL and ADMIN_PASSWORD (12 characters or more).');
  process.exit(1);
}
const { db, close } = openDatabase({ DATABASE_URL, DB_WS_PROXY, DB_HTTP_ENDPOINT });
const result = await seedAdmin(db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
await close();
console.log(result.created ? `Administrator ${ADMIN_EMAIL} created.` : `Administrator ${ADMIN_EMAIL} exists; password updated.`);
