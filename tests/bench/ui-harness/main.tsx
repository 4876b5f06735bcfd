/**
 * Boots the list-render harness as the portal boots (admin/src/main.tsx): the bundle holds only the
 * public metadata, so the session's metadata (sup01's GET /api/meta, which the bench puts in
 * /data.json) is installed before the modules that read it as they load (harness.tsx) are imported.
 */
import type { CompiledMetadata } from '../../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../../codegen/runtime/field-schema.ts';
import { installMetadata } from '../../../admin/src/generated/index.ts';
import type { HarnessData } from './harness.tsx';

async function boot(): Promise<void> {
  const data = (await (await fetch('./data.json')).json()) as HarnessData & { meta: CompiledMetadata & { schemas: Record<string, EntitySchemas> } };
  const { schemas, ...meta } = data.meta;
  installMetadata(meta, schemas);
  const { start } = await import('./harness.tsx');
  await start(data);
}

boot().catch((e: unknown) => {
  const variant = new URLSearchParams(location.search).get('variant') ?? 'lean';
  window.__harness = { variant: variant as 'lean', rows: 0, ready: false, error: String((e as Error)?.stack ?? e) };
});
