// Applies the committed SQL migrations. `npm run db:migrate` runs it against DATABASE_URL
// (Neon in production); the local stack and the tests call applyMigrations directly.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export async function applyMigrations(databaseUrl: string): Promise<void> {
  const needsTls = /sslmode=require|neon\.tech/.test(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, ssl: needsTls ? { rejectUnauthorized: true } : undefined });
  try {
    await migrate(drizzle(pool), { migrationsFolder });
  } finally {
    await pool.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('Set DATABASE_URL to the database to migrate (for Neon, the direct connection string).');
    process.exit(1);
  }
  applyMigrations(url).then(
    () => console.log('Migrations applied.'),
    (error) => {
      console.error('Migration failed:', error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
