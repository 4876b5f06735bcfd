/**
 * Step 1: every metadata file against its meta-schema (metadata/schema/). Nothing else is checked
 * while a file breaks its meta-schema: the later steps rely on the shapes it guarantees. A property
 * or an enum value the meta-schema does not know is reported with the closest allowed one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { SourceFile } from '../load.ts';
import type { CompileContext } from './context.ts';
import { choicesHint, closest } from './suggest.ts';

const SCHEMA_DIR = 'schema';
const SCHEMA_FILES = ['common', 'app', 'access', 'codes', 'rules', 'screen', 'entity', 'i18n', 'migration', 'mail', 'interfaces'].map(
  (n) => `${n}.schema.json`,
);
type Validators = ReturnType<typeof buildValidators>;
/** Compiled meta-schemas, kept while the schema files are unchanged (watch mode regenerates fast). */
const validatorCache = new Map<string, Validators>();

function metaValidators(metadataDir: string): Validators {
  const key = metadataDir + '\0' + SCHEMA_FILES.map((f) => readFileSync(join(metadataDir, SCHEMA_DIR, f), 'utf8')).join('\0');
  let v = validatorCache.get(key);
  if (!v) {
    v = buildValidators(metadataDir);
    validatorCache.clear();
    validatorCache.set(key, v);
  }
  return v;
}

function buildValidators(metadataDir: string) {
  // verbose: errors carry their schema, so an unknown property can be compared with the known ones
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, formats: { regex: true } });
  const load = (f: string) => JSON.parse(readFileSync(join(metadataDir, SCHEMA_DIR, f), 'utf8'));
  ajv.addSchema(load('common.schema.json'));
  // entity files may embed screens, so the screen schema is known by its $id before entities compile
  ajv.addSchema(load('screen.schema.json'));
  const compile = (f: string) => ajv.compile(load(f));
  return {
    app: compile('app.schema.json'),
    access: compile('access.schema.json'),
    codes: compile('codes.schema.json'),
    rules: compile('rules.schema.json'),
    entity: compile('entity.schema.json'),
    screen: ajv.getSchema('screen.schema.json')!,
    i18n: compile('i18n.schema.json'),
    migration: compile('migration.schema.json'),
    mail: compile('mail.schema.json'),
    interfaces: compile('interfaces.schema.json'),
  };
}

function detailOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') {
    const name = (e.params as { additionalProperty: string }).additionalProperty;
    const known = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}).filter((k) => k !== '$schema');
    return `unknown property "${name}" (not allowed by the meta-schema)${known.length ? choicesHint(name, known) : ''}`;
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
    const near =
      typeof e.data === 'string'
        ? closest(
            e.data,
            allowed.filter((a): a is string => typeof a === 'string'),
          )
        : undefined;
    return `${e.message}: ${JSON.stringify(allowed)}${near !== undefined ? ` (did you mean "${near}"?)` : ''}`;
  }
  return `${e.message ?? 'invalid'}`;
}

function schemaErrors(ctx: CompileContext, file: string, errs: ErrorObject[] | null | undefined): void {
  if (!errs) return;
  // oneOf failures are noisy: keep the most specific error per pointer
  const seen = new Set<string>();
  for (const e of errs) {
    if (e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const detail = detailOf(e);
    const k = `${e.instancePath}|${detail}`;
    if (seen.has(k)) continue;
    seen.add(k);
    ctx.err(file, e.instancePath, `expected by the meta-schema: ${detail}`);
  }
}

/** Checks every file; true when all of them pass. */
export function checkMetaSchemas(ctx: CompileContext): boolean {
  const { src } = ctx;
  const v = metaValidators(src.root);
  const before = ctx.errors.length;
  const check = (fn: ValidateFunction, f: SourceFile) => {
    if (!fn(f.data)) schemaErrors(ctx, f.file, fn.errors);
  };
  check(v.app, src.app);
  check(v.access, src.access);
  check(v.mail, src.mail);
  src.codes.forEach((f) => check(v.codes, f));
  src.rules.forEach((f) => check(v.rules, f));
  src.entities.forEach((f) => check(v.entity, f));
  src.screens.forEach((f) => check(v.screen, f));
  Object.values(src.i18n)
    .flat()
    .forEach((f) => check(v.i18n, f));
  src.migrations.forEach((f) => check(v.migration, f));
  if (src.interfaces) check(v.interfaces, src.interfaces);
  return ctx.errors.length === before;
}
