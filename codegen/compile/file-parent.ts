/**
 * `file.parentStates` of a file entity: the parent states (scope.parent's entity) in which its
 * files may be added, replaced or deleted, compiled from code keys to stored codes. Kept apart
 * from compile/entities.ts, which calls it once every entity is compiled (the parent may come later).
 */
import { ptr } from '../load.ts';
import type { CompiledEntity } from '../runtime/model.ts';

type Err = (file: string, pointer: string, detail: string) => void;
type CodeOf = (file: string, pointer: string, table: string, key: unknown) => string;

export function compileFileParentStates(
  file: string,
  raw: { file?: { rule: string; parentStates?: Record<string, string[]> } },
  e: CompiledEntity,
  entities: Record<string, CompiledEntity>,
  err: Err,
  codeOf: CodeOf,
): void {
  const states = raw.file?.parentStates;
  if (!states || !e.file) return;
  const parent = e.scope.parent ? entities[e.fields[e.scope.parent]?.ref ?? ''] : undefined;
  if (!parent) {
    err(file, '/file/parentStates', 'parentStates needs scope.parent (the entity whose state files follow)');
    return;
  }
  const out: Record<string, string[]> = {};
  for (const [field, keys] of Object.entries(states)) {
    const f = parent.fields[field];
    if (!f || f.type !== 'code' || !f.codeTable) {
      err(file, ptr('file', 'parentStates', field), `"${field}" is not a code field of entity "${parent.name}"`);
      continue;
    }
    out[field] = keys.map((k, i) => codeOf(file, ptr('file', 'parentStates', field, i), f.codeTable!, k));
  }
  e.file.parentStates = out;
}
