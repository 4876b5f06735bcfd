/**
 * npm start: the portal on one port: API and built admin, same origin. Reads the environment
 * (README "Environment"), creates and fills the database with demo data on first start.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { isEmpty, seedDatabase } from './seed/index.ts';
import { metadata } from './generated/index.ts';

/** The project root: the nearest folder with package.json above this file (server/ when run by tsx, server/dist/ when compiled). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
const root = projectRoot();
const config = loadConfig();
const app = await buildApp({
  dbFile: config.dbFile,
  jwtSecret: config.jwtSecret,
  filesDir: config.filesDir,
  adminDir: join(root, 'admin', 'dist'),
  // secrets never reach the log, whatever a serializer adds later (ASVS 16.2.5)
  logger: { level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.newPassword', 'req.body.oldPassword'] },
});
if (config.seed === 'demo' && isEmpty(app.db)) {
  const t0 = performance.now();
  await seedDatabase(app.db, metadata);
  app.log.info(`demo data written to ${config.dbFile} in ${Math.round(performance.now() - t0)} ms`);
}
const close = async () => {
  await app.close();
  process.exit(0);
};
process.on('SIGINT', close);
process.on('SIGTERM', close);
await app.listen({ port: config.port, host: config.host });
