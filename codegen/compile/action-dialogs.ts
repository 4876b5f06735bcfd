/**
 * What an action's dialog declares beyond its inputs, checked and compiled: `perRecord` (inputs a
 * bulk call gives per record, edited in a grid, each pre-filled from a record field), `show`
 * (record fields shown read-only), `supplierFields` (which of the suppliers a row names may run
 * it) and the entity's `identifyBy` (the fields that name one record in messages about several).
 * Kept apart from compile/entities.ts, which calls it once per entity.
 */
import { ptr } from '../load.ts';
import type { CompiledEntity, CompiledField } from '../runtime/model.ts';

interface RawDialogParts {
  identifyBy?: string[];
  actions?: Record<
    string,
    { bulk?: boolean; collection?: boolean; perRecord?: Record<string, { default?: string }>; show?: string[]; supplierFields?: string[] }
  >;
}

type Err = (file: string, pointer: string, detail: string) => void;

/** Numbers pre-fill numbers, anything else only its own type. */
const sameKind = (a: CompiledField, b: CompiledField): boolean => {
  const num = (t: string) => t === 'integer' || t === 'decimal';
  return a.type === b.type || (num(a.type) && num(b.type));
};

export function compileActionDialogs(file: string, raw: RawDialogParts, e: CompiledEntity, err: Err): void {
  const visibleField = (name: string, pointer: string, what: string): CompiledField | null => {
    const f = e.fields[name];
    if (!f) {
      err(file, pointer, `${what}: unknown field "${name}" of entity "${e.name}" (expected one of: ${e.fieldOrder.join(', ')})`);
      return null;
    }
    if (f.private) {
      err(file, pointer, `${what}: field "${name}" is private and can never be shown`);
      return null;
    }
    return f;
  };
  if (raw.identifyBy) {
    raw.identifyBy.forEach((n, i) => visibleField(n, ptr('identifyBy', i), 'identifyBy'));
    e.identifyBy = [...raw.identifyBy];
  }
  for (const [an, ra] of Object.entries(raw.actions ?? {})) {
    const a = e.actions[an];
    if (!a) continue;
    if (ra.supplierFields) {
      ra.supplierFields.forEach((n, i) => {
        if (!e.scope.supplierFields.includes(n))
          err(
            file,
            ptr('actions', an, 'supplierFields', i),
            `"${n}" is not one of the entity's supplier scope fields (${e.scope.supplierFields.join(', ') || 'none'})`,
          );
      });
      a.supplierFields = [...ra.supplierFields];
    }
    if (ra.show) {
      ra.show.forEach((n, i) => visibleField(n, ptr('actions', an, 'show', i), `action "${an}" show`));
      a.show = [...ra.show];
    }
    if (!ra.perRecord) continue;
    const p = ptr('actions', an, 'perRecord');
    if (!ra.bulk || ra.collection) err(file, p, `perRecord needs a bulk action on records ("bulk": true): a single record takes its inputs as they are`);
    const defaults: Record<string, string> = {};
    for (const [input, def] of Object.entries(ra.perRecord)) {
      const inField = a.input[input];
      if (!inField) {
        err(file, ptr('actions', an, 'perRecord', input), `unknown input "${input}" of action "${an}" (expected one of: ${a.inputOrder.join(', ') || 'none'})`);
        continue;
      }
      if (input === 'target') err(file, ptr('actions', an, 'perRecord', input), `the choice of end state ("target") is one for all records`);
      if (def.default !== undefined) {
        const from = visibleField(def.default, ptr('actions', an, 'perRecord', input, 'default'), `default of input "${input}"`);
        if (from && !sameKind(from, inField))
          err(
            file,
            ptr('actions', an, 'perRecord', input, 'default'),
            `field "${def.default}" (${from.type}) cannot pre-fill input "${input}" (${inField.type})`,
          );
        defaults[input] = def.default;
      }
    }
    a.perRecord = { fields: a.inputOrder.filter((n) => n in ra.perRecord!), defaults };
  }
}
