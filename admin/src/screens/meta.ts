/**
 * Look-ups into the compiled metadata that every generated screen needs. Screens never name an
 * entity: they receive a CompiledScreen and find everything else from here.
 */
import type { CompiledAction, CompiledEntity, CompiledField, CompiledScreen } from '../../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../../codegen/runtime/field-schema.ts';
import { metadata, schemas } from '../generated/index.ts';

export { metadata };

export function entityOfResource(resource: string | undefined): CompiledEntity | undefined {
  const name = resource ? metadata.resources[resource] : undefined;
  return name ? metadata.entities[name] : undefined;
}

/** The entity of a screen; screens of kind list/edit/show always declare one (codegen checks it). */
export function screenEntity(screen: CompiledScreen): CompiledEntity {
  const e = entityOfResource(screen.resource);
  if (!e) throw new Error(`screen ${screen.name} has no resource`);
  return e;
}

export const screenByName = (name: string | undefined): CompiledScreen | undefined => (name ? metadata.screens.find((s) => s.name === name) : undefined);

/** Fields of the entity, plus the "common" system fields (id, createdAt, ...) every entity has. */
export const fieldOf = (e: CompiledEntity, name: string): CompiledField | undefined => e.fields[name];

/** The actions a screen's buttons stand for (buttons name actions by their `button`); internal ones are the engine's. */
export function actionsForButtons(e: CompiledEntity, buttons: readonly string[]): CompiledAction[] {
  return Object.values(e.actions).filter((a) => !a.internal && buttons.includes(a.button));
}

export const buttonLabelKey = (button: string): string => metadata.access.buttons[button]?.labelKey ?? `button.${button}`;

export const codeLabelKey = (table: string, code: string): string => `code.${table}.${code}`;

/** The code values a code field may take: the schema's enum (e.g. an action's `target`) or the whole table. */
export function codeChoices(field: CompiledField, schema?: JsonSchema): string[] {
  const allowed = Array.isArray(schema?.enum) ? (schema!.enum as unknown[]).filter((v): v is string => typeof v === 'string') : null;
  const table = field.codeTable ? metadata.codeTables[field.codeTable] : undefined;
  const all = table ? table.values.map((v) => v.code) : [];
  return allowed ?? all;
}

export interface EntitySchemaSet {
  create: JsonSchema;
  update: JsonSchema;
  actions: Record<string, JsonSchema>;
  /** actions with per-record inputs: the complete input of one record */
  recordInputs?: Record<string, JsonSchema>;
}
export const schemasOf = (e: CompiledEntity): EntitySchemaSet => schemas[e.name] as EntitySchemaSet;

/** The related list of a screen that holds files (upload / download / delete go there). */
export function fileRelation(screen: CompiledScreen): CompiledScreen['related'][number] | undefined {
  return screen.related.find((r) => !!entityOfResource(r.resource)?.file);
}

/** Fields the user may type on create (declared, not read-only) and on update (minus create-only). */
export const isCreatable = (f: CompiledField | undefined): boolean => !!f && !f.system && !f.readOnly;
export const isUpdatable = (f: CompiledField | undefined): boolean => isCreatable(f) && !f!.createOnly;
