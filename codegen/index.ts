/** Codegen as a library: load -> check and compile -> generate. Used by the CLI and by tests. */
import { loadSources, type MetadataError } from './load.ts';
import { compileMetadata } from './compile.ts';
import { generate } from './generate.ts';
import { REFERENCE_FILE, referenceMarkdown } from './reference.ts';
import { ENTITY_MAP_FILE, entityMapMarkdown } from './entity-map.ts';
import { join } from 'node:path';
import type { Catalogues, CompiledMetadata } from './runtime/model.ts';

export interface CodegenResult {
  errors: MetadataError[];
  model: CompiledMetadata | null;
  catalogues: Catalogues | null;
  files: Map<string, string> | null;
  stats: string;
  /** the documentation outputs (reference, entity map) when `docsApart` kept them out of `files` */
  docs?: () => Map<string, string>;
}

/**
 * `docsApart`: the documentation outputs are left out of `files` and made by `docs()` when asked.
 * The watch writes what the running portal reads first: the entity map reads every code file of
 * the project (about half of a run), and nothing in the dev loop waits for it.
 */
export async function runCodegen(metadataDir: string, projectRoot: string, { docsApart = false } = {}): Promise<CodegenResult> {
  const { sources, errors } = loadSources(metadataDir, projectRoot);
  if (!sources || errors.length) return { errors, model: null, catalogues: null, files: null, stats: '' };
  const { model, catalogues, errors: checkErrors } = compileMetadata(sources);
  if (!model || !catalogues) return { errors: checkErrors, model: null, catalogues: null, files: null, stats: '' };
  // the migration's file and the entity's file go along, so that a migration's messages name them
  const migrations = sources.migrations.map((m) => {
    const { $schema: _s, ...rest } = m.data as Record<string, unknown>;
    return { ...rest, file: m.file };
  });
  const entityFiles = Object.fromEntries(sources.entities.map((f) => [(f.data as { name: string }).name, f.file]));
  const files = await generate(model, catalogues, migrations, entityFiles);
  const docs = () =>
    new Map([
      // the reference of every metadata option, from the meta-schemas (committed: newcomers read it in the repository)
      [REFERENCE_FILE, referenceMarkdown(join(metadataDir, 'schema')).text],
      // where each entity's files are, across the folders and naming schemes (docs/entity-map.md)
      [ENTITY_MAP_FILE, entityMapMarkdown(projectRoot, model, sources)],
    ]);
  if (!docsApart) for (const [file, text] of docs()) files.set(file, text);
  const stats = `${Object.keys(model.entities).length} entities, ${Object.keys(model.codeTables).length} code tables, ${Object.keys(model.rules).length} rules, ${model.screens.length} screens, ${Object.keys(catalogues['en-US']).length} messages`;
  return { errors: [], model, catalogues, files, stats, ...(docsApart ? { docs } : {}) };
}
