/**
 * Runs the lifecycle hooks an entity declares (metadata "hooks"; contract in hook-types.ts) for
 * the engine's create, update and delete, inside the operation's transaction, after the entity's
 * declared cross-field rules (metadata "compare", codegen/runtime/compare-rules.ts). Field errors from
 * validate become one 400 error.validation in react-admin's shape, like the schema's own.
 */
import type { CompiledEntity, CompiledMetadata, HookName } from '../../codegen/runtime/model.ts';
import { today, type FieldErrors } from '../../codegen/runtime/validation.ts';
import { compareErrors } from '../../codegen/runtime/compare-rules.ts';
import { validationFailed } from './errors.ts';
import type { HandlerServices } from './handler-types.ts';
import type { ErrorArgs, WriteOperation } from './hook-types.ts';

type Rec = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHook = (ctx: any) => unknown;
/** entity -> hook -> implementation (server/hooks/index.ts, typed there by the generated EntityHooks) */
export type HookTable = Record<string, Partial<Record<HookName, AnyHook>>>;

/** Where a declared hook is written: its own module named for the entity, registered in server/hooks/index.ts. */
export function hookHome(entityHook: string): string {
  const [entity, hook] = entityHook.split('.');
  const file = `server/hooks/${entity.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;
  return `write ${entity}.${hook} in ${file} (export const ${hook}${entity[0].toUpperCase()}${entity.slice(1)}: ${hook[0].toUpperCase()}${hook.slice(1)}Hook<...> = (ctx) => { ... }) and add it to server/hooks/index.ts: ${entity}: { ${hook}: ... }`;
}

export class HookRunner {
  constructor(
    readonly meta: CompiledMetadata,
    readonly hooks: HookTable,
  ) {
    // the compiler already asks for every declared hook; this guards a table built some other way
    const missing = Object.values(meta.entities).flatMap((e) => e.hooks.filter((h) => typeof hooks[e.name]?.[h] !== 'function').map((h) => `${e.name}.${h}`));
    if (missing.length) throw new Error(`lifecycle hooks missing: ${missing.join(', ')}. ${missing.map(hookHome).join('; ')}`);
  }

  private hook(e: CompiledEntity, name: HookName): AnyHook | undefined {
    return e.hooks.includes(name) ? this.hooks[e.name]?.[name] : undefined;
  }

  /** The record as it will be after the operation: the stored one (create: the defaults) with the values applied; null on delete. */
  static after(e: CompiledEntity, op: WriteOperation, before: Rec | null, values: Rec): Rec | null {
    if (op === 'delete') return null;
    const base: Rec = before
      ? { ...before }
      : Object.fromEntries(e.fieldOrder.filter((n) => e.fields[n].default !== undefined).map((n) => [n, e.fields[n].default]));
    return { ...base, ...values };
  }

  /**
   * The field errors of the declared cross-field rules (metadata "compare"), then of the validate
   * hook for the other fields (null when none finds any).
   */
  async fieldErrors(svc: HandlerServices, e: CompiledEntity, operation: WriteOperation, before: Rec | null, after: Rec | null): Promise<FieldErrors | null> {
    const compared = after && operation !== 'delete' ? compareErrors(e, after, operation, today()) : null;
    const validate = this.hook(e, 'validate');
    if (!validate) return compared;
    const errors: FieldErrors = { ...compared };
    const fieldError = (field: string, key: string, args?: ErrorArgs) => {
      if (!(field in errors)) errors[field] = { key, ...(args ? { args } : {}) };
    };
    await validate({ ...svc, entity: e, operation, before, after, fieldError });
    return Object.keys(errors).length ? errors : null;
  }

  /**
   * validate, then beforeWrite. Throws 400 error.validation with the field errors; returns the
   * values to write (beforeWrite may have changed them).
   */
  async beforeWrite(svc: HandlerServices, e: CompiledEntity, operation: WriteOperation, before: Rec | null, values: Rec): Promise<Rec> {
    if (!e.hooks.length && !e.compare) return values;
    const after = HookRunner.after(e, operation, before, values);
    const errors = await this.fieldErrors(svc, e, operation, before, after);
    if (errors) throw validationFailed(errors);
    const hook = this.hook(e, 'beforeWrite');
    if (hook) await hook({ ...svc, entity: e, operation, before, after, values });
    return values;
  }

  /** afterWrite, with the record as stored (null after a delete). */
  async afterWrite(svc: HandlerServices, e: CompiledEntity, operation: WriteOperation, before: Rec | null, after: Rec | null): Promise<void> {
    const hook = this.hook(e, 'afterWrite');
    if (hook) await hook({ ...svc, entity: e, operation, before, after });
  }
}
