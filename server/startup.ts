/**
 * What can stop the portal from starting, told as one paragraph an operator or developer can act
 * on, never as a stack: a bad setting, metadata that is broken or newer than the generated files,
 * a migration that is refused or fails, a database that cannot be opened, a port in use.
 * main.ts prints it to stderr and exits with code 1 (LOG_LEVEL=debug adds the stack).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSources, sourcesHash } from '../codegen/load.ts';

/** A failure whose message already says what to do. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * The generated files exist and were made from the metadata/ that is here now: metadata that does
 * not parse is named by file, line and column; metadata changed since the last `npm run codegen`
 * (whose checks name every other problem) is refused, since the server would run on the old one.
 * `generatedHash`: the hash the generated model carries (undefined: the generated files are missing).
 */
export function checkMetadata(projectRoot: string, generatedHash: string | undefined): void {
  const dir = join(projectRoot, 'metadata');
  if (generatedHash === undefined)
    throw new StartupError(
      'The generated files are missing (server/generated/). Run npm run codegen, which checks the metadata and writes them, then start again.',
    );
  // a deployment without the metadata sources runs on what was generated from them
  if (!existsSync(join(dir, 'app.json'))) return;
  const { sources, errors } = loadSources(dir, projectRoot);
  if (errors.length || !sources) {
    throw new StartupError(
      `The metadata cannot be read:\n  - ${errors.map((e) => e.message).join('\n  - ')}\nFix these files, run npm run codegen, then start again.`,
    );
  }
  if (sourcesHash(sources) !== generatedHash) {
    throw new StartupError(
      'The metadata changed since the generated files were written (server/generated/ is out of date). Run npm run codegen, which checks the metadata and names every problem, then start again.',
    );
  }
}

/** The hash of the generated model, read without importing it (so missing files are a message, not a crash). */
export function generatedHash(projectRoot: string): string | undefined {
  const file = join(projectRoot, 'server', 'generated', 'metadata.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { hash?: string }).hash;
}

const firstLine = (s: string) => s.split('\n')[0];

/** The paragraph for a start-up failure. */
export function startupMessage(err: unknown, where: { port: number; host: string; database: string } | null): string {
  const e = err as Error & { code?: string; syscall?: string };
  const name = e?.name;
  if (name === 'StartupError' || name === 'MigrationRefused' || name === 'MigrationFailed') return e.message;
  if (e?.code === 'EADDRINUSE' && where)
    return `Port ${where.port} on ${where.host} is already in use (another portal, or another program, listens there). Stop it, or set PORT to a free port, then start again.`;
  if ((e?.code === 'EACCES' || e?.code === 'EADDRNOTAVAIL') && e?.syscall === 'listen' && where)
    return `The portal may not listen on ${where.host}:${where.port} (${e.code}): set HOST to an address of this machine and PORT to a port above 1023, then start again.`;
  if (e?.code && /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|SQLITE_CANTOPEN|28P01|3D000|28000)$/.test(e.code) && where)
    return `The database ${where.database} cannot be opened (${e.code}: ${firstLine(e.message)}). Check DATABASE_URL or PORTAL_DB, and that the database server is running, then start again.`;
  return `The portal did not start: ${firstLine(e?.message ?? String(err))} (LOG_LEVEL=debug shows where).`;
}
