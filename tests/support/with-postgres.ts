/**
 * Runs a command with a fresh PostgreSQL database: `tsx tests/support/with-postgres.ts <cmd> [args]`.
 * Starts a throw-away cluster (or uses DATABASE_URL's server), creates an empty database, runs the
 * command with E2E_DATABASE_URL set to it, then drops the database and stops the cluster, whatever
 * the command's outcome, and exits with the command's exit code. `npm run test:e2e:pg` runs the
 * browser suite this way, against the portal on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { createTestDatabase, ensurePostgres } from './postgres.ts';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: tsx tests/support/with-postgres.ts <command> [args...]');
  process.exit(2);
}
const server = await ensurePostgres();
let code: number;
try {
  const db = await createTestDatabase(server.url, 'portal_e2e');
  try {
    code = await new Promise<number>((resolve, reject) => {
      const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, E2E_DATABASE_URL: db.url } });
      child.on('error', reject);
      child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
      // pass an interrupt on, then clean up after the child has gone
      for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s));
    });
  } finally {
    await db.drop();
  }
} finally {
  await server.stop();
}
process.exit(code);
