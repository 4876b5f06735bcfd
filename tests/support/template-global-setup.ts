/**
 * vitest globalSetup: the run's seeded template databases (tests/server/seeded-template.ts), made
 * once before any test file and handed to the workers through the environment, which they inherit.
 * The backend is the project's (PORTAL_TEST_BACKEND in its env); on PostgreSQL this runs after
 * pg-global-setup.ts, whose server holds the templates.
 *
 * Use it from a vitest project:  globalSetup: ['tests/support/template-global-setup.ts']
 */
import type { TestProject } from 'vitest/node';
import { makeTemplates, templateEnvName, type Backend } from '../server/seeded-template.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backend: Backend = project.config.env?.PORTAL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
  const started = Date.now();
  const templates = await makeTemplates(backend, process.env.PORTAL_TEST_PG_URL);
  process.env[templateEnvName(backend)] = JSON.stringify(templates.locations);
  console.log(`seeded templates (${backend}, scales ${Object.keys(templates.locations).join(', ')}) made in ${Date.now() - started} ms`);
  return async () => {
    delete process.env[templateEnvName(backend)];
    await templates.remove();
  };
}
