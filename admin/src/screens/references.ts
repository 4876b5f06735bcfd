/**
 * Reference (ref) fields are shown by the referenced record's title field (metadata `titleField`,
 * e.g. a settlement line's settlementId as the settlement number JS...), never by the internal id.
 * The titles of the ids on screen are fetched with one getMany per reference column (GET
 * /api/<target>?filter={"id":[...]}: the caller's own read scope applies), cached by react-query.
 * A title that cannot be read (no permission, deleted) falls back to the id. A failure that is not a
 * refusal (network, 429, 5xx) is not cached as "no titles": the query fails, the ids show meanwhile,
 * and react-query asks again (a cached failure used to leave ids on screen for the whole staleTime).
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, type RaRecord } from 'react-admin';
import type { CompiledEntity, CompiledField } from '../../../codegen/runtime/model.ts';
import { mayResource } from './access.ts';
import { metadata } from './meta.ts';

/** field name -> (id -> title) */
export type ReferenceTitles = Record<string, Map<string, string>>;

const EMPTY: ReferenceTitles = {};

/** The entity a ref field points at, when the user may read it. */
export function referenceTarget(f: CompiledField | undefined): CompiledEntity | undefined {
  if (!f || f.type !== 'ref' || !f.ref) return undefined;
  const target = metadata.entities[f.ref];
  return target && mayResource(target.resource, 'list') ? target : undefined;
}

export function useReferenceTitles(
  entity: CompiledEntity | undefined,
  fieldNames: readonly string[],
  rows: readonly Record<string, unknown>[] | undefined,
): ReferenceTitles {
  const dp = useDataProvider();
  const wanted = useMemo(() => {
    const out: { field: string; target: CompiledEntity; ids: string[] }[] = [];
    if (!entity || !rows?.length) return out;
    for (const name of fieldNames) {
      const target = referenceTarget(entity.fields[name]);
      if (!target) continue;
      const ids = [
        ...new Set(
          rows
            .map((r) => r[name])
            .filter((v) => v !== null && v !== undefined && v !== '')
            .map(String),
        ),
      ].sort();
      if (ids.length) out.push({ field: name, target, ids });
    }
    return out;
  }, [entity, fieldNames, rows]);
  const { data } = useQuery({
    queryKey: ['referenceTitles', entity?.name, wanted.map((w) => [w.field, w.ids])],
    enabled: wanted.length > 0,
    staleTime: 60_000,
    retry: 3,
    queryFn: async (): Promise<ReferenceTitles> => {
      const out: ReferenceTitles = {};
      for (const w of wanted) {
        const titles = new Map<string, string>();
        try {
          const { data: records } = await dp.getMany<RaRecord>(w.target.resource, { ids: w.ids });
          for (const r of records) titles.set(String(r.id), String(r[w.target.titleField] ?? r.id));
        } catch (e) {
          if (!isRefusal(e)) throw e;
          /* not readable: the ids stay */
        }
        out[w.field] = titles;
      }
      return out;
    },
  });
  return data ?? EMPTY;
}

/** 401/403/404: the caller may not read the target (or it is gone); anything else is worth asking again. */
function isRefusal(e: unknown): boolean {
  const status = (e as { status?: unknown } | null)?.status;
  return status === 401 || status === 403 || status === 404;
}
