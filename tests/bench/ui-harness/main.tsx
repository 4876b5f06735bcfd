/**
 * Boots the list-render harness as the portal boots (admin/src/main.tsx): the bundle holds only the
 * public metadata, so the session's metadata (sup01's GET /api/meta, which the bench puts in
 * /data.json) is installed before the modules that read it as they load (harness.tsx) are imported.
 */
import { installSessionAnswer, type SessionMetaAnswer } from '../../../admin/src/providers/sessionMetadata.ts';
import type { HarnessData } from './harness.tsx';

async function boot(): Promise<void> {
  const data = (await (await fetch('./data.json')).json()) as HarnessData & { meta: SessionMetaAnswer };
  if (!installSessionAnswer(data.meta)) throw new Error('data.json: meta is not a logged-in GET /api/meta answer');
  const { start } = await import('./harness.tsx');
  await start(data);
}

boot().catch((e: unknown) => {
  const variant = new URLSearchParams(location.search).get('variant') ?? 'lean';
  window.__harness = { variant: variant as 'lean', rows: 0, ready: false, error: String((e as Error)?.stack ?? e) };
});
