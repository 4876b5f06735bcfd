/**
 * Checks metadata (meta-schema first, then every cross-reference) and compiles it into the model
 * of codegen/runtime/model.ts. Every problem becomes a MetadataError naming the file, the JSON
 * pointer and what was expected; compilation only succeeds when there are none.
 *
 * Each concern is a step of its own in codegen/compile/: the steps that build the model run in
 * the order below (each needs the ones before it); the checks that only read the built model are
 * the files of codegen/compile/checks/ (adding one is adding a file there).
 */
import { sourcesHash, type MetadataError, type MetadataSources } from './load.ts';
import type { Catalogues, CompiledMetadata } from './runtime/model.ts';
import { checkProfileTypes, compileAccess, compileApp } from './compile/app-access.ts';
import { bundles, readCatalogues } from './compile/catalogues.ts';
import { compileCodeTables } from './compile/code-tables.ts';
import { CompileContext } from './compile/context.ts';
import { compileEntities } from './compile/entities.ts';
import { checkMetaSchemas } from './compile/meta-schema.ts';
import { compileRules } from './compile/rules.ts';
import { runChecks } from './compile/run-checks.ts';
import { compileScreens, screenSources } from './compile/screens.ts';
import { compileTiles } from './compile/tiles.ts';
import { compileCharts } from './compile/charts.ts';
import { compileNotifications } from './compile/notifications.ts';
import { compileMail } from './compile/mail.ts';
import { compileOutbox } from './compile/outbox.ts';
import { compileInbound } from './compile/inbound.ts';

export { SYSTEM_FIELDS, snake } from './compile/fields.ts';

export interface CompileResult {
  model: CompiledMetadata | null;
  catalogues: Catalogues | null;
  errors: MetadataError[];
}

export function compileMetadata(src: MetadataSources): CompileResult {
  const ctx = new CompileContext(src);
  if (!checkMetaSchemas(ctx)) return { model: null, catalogues: null, errors: ctx.errors };

  readCatalogues(ctx);
  const app = compileApp(ctx);
  const access = compileAccess(ctx);
  const codeTables = compileCodeTables(ctx);
  checkProfileTypes(ctx, access, codeTables);
  const rules = compileRules(ctx);
  const { entities, resources, files: entityFiles } = compileEntities(ctx, rules, access);
  const sources = screenSources(src);
  const screens = compileScreens(ctx, { app, access, entities, resources }, sources);
  const mail = compileMail(ctx);
  // a tile names another screen: compiled once every screen is
  compileTiles(
    ctx,
    screens,
    entities,
    resources,
    sources.flatMap((x, i) => (x.s.tiles?.length ? [{ screen: screens[i], tiles: x.s.tiles, file: x.file, base: x.base }] : [])),
  );
  compileCharts(
    ctx,
    screens,
    entities,
    resources,
    sources.flatMap((x, i) => (x.s.charts?.length ? [{ screen: screens[i], charts: x.s.charts, file: x.file, base: x.base }] : [])),
  );

  const screenFiles = new Map<string, { file: string; base: string }>();
  screens.forEach((s, i) => {
    if (!screenFiles.has(s.name)) screenFiles.set(s.name, { file: sources[i].file, base: sources[i].base });
  });
  screens.sort((a, b) => a.path.localeCompare(b.path));
  compileNotifications(ctx, entities, screens);
  // the outbox of the external exchange (metadata/interfaces.json): names entities, actions and fields
  const outbox = src.interfaces ? compileOutbox(ctx, src.interfaces, { app, codeTables, entities }) : undefined;
  // and its inbound half: what machine clients may post (server/inbound/)
  if (outbox && src.interfaces) outbox.inbound = compileInbound(ctx, src.interfaces, { app, codeTables, rules, entities });
  const model = { app, access, codeTables, rules, entities, resources, screens, mail, ...(outbox ? { outbox } : {}) };
  runChecks({
    model,
    src,
    err: ctx.err,
    unknown: (...a) => ctx.unknown(...a),
    text: ctx.text,
    hasKey: ctx.hasKey,
    entityFile: (name) => entityFiles.get(name) ?? 'metadata/entities',
    screenAt: (name) => screenFiles.get(name) ?? { file: 'metadata/screens', base: '' },
  });

  if (ctx.errors.length) return { model: null, catalogues: null, errors: ctx.errors };
  return { model: { hash: sourcesHash(src), ...model }, catalogues: bundles(ctx, codeTables), errors: [] };
}
