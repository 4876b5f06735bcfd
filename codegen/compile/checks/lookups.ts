/**
 * A field's `lookup` names what exists: the target's field (a string one with the "contains"
 * filter, which the form's autocomplete searches), the fields of both sides its `scopedBy` pairs,
 * and its message key.
 */
import { ptr } from '../../load.ts';
import type { Check } from '../run-checks.ts';

export default {
  about: 'a lookup names a field of its target (searchable with "contains"), scopedBy fields of both entities and a known message key',
  run({ model, err, unknown, hasKey, entityFile }) {
    for (const e of Object.values(model.entities)) {
      const places = [
        ...Object.values(e.fields).map((f) => ({ f, base: ['fields', f.name] })),
        ...Object.values(e.actions).flatMap((a) => Object.values(a.input).map((f) => ({ f, base: ['actions', a.name, 'input', f.name] }))),
      ];
      for (const { f, base } of places) {
        const l = f.lookup;
        const target = l && model.entities[l.entity];
        if (!l || !target) continue;
        const file = entityFile(e.name);
        const p = ptr(...base, 'lookup');
        const tf = target.fields[l.field];
        if (!tf) unknown(file, `${p}/field`, 'field', l.field, Object.keys(target.fields), { of: `of entity "${l.entity}"` });
        else if (tf.type === 'string' && !tf.filter.includes('contains'))
          err(file, `${p}/field`, `field "${l.field}" of "${l.entity}" needs the "contains" filter (the form's autocomplete searches it)`);
        for (const [mine, theirs] of Object.entries(l.scopedBy)) {
          if (!e.fields[mine]) err(file, `${p}/scopedBy/${mine}`, `field "${f.name}" is scoped by "${mine}", which this entity does not have`);
          if (!target.fields[theirs]) unknown(file, `${p}/scopedBy/${mine}`, 'field', theirs, Object.keys(target.fields), { of: `of entity "${l.entity}"` });
        }
        if (!hasKey(l.messageKey)) err(file, `${p}/messageKey`, `unknown message key "${l.messageKey}" (add it to metadata/i18n in both languages)`);
      }
    }
  },
} satisfies Check;
