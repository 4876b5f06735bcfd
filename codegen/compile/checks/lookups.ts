/**
 * A field's `lookup` names what exists: the target's field (a string one with the "contains"
 * filter, which the form's autocomplete searches), the fields of both sides its `scopedBy` pairs,
 * its message key, and the fields a pick fills (a field of this record, besides the lookup field,
 * taking a target field of the same type).
 */
import { ptr } from '../../load.ts';
import type { Check } from '../run-checks.ts';

export default {
  about: 'a lookup names a field of its target (searchable with "contains"), scopedBy fields of both entities and a known message key',
  run({ model, err, unknown, hasKey, entityFile }) {
    for (const e of Object.values(model.entities)) {
      const places = [
        ...Object.values(e.fields).map((f) => ({ f, base: ['fields', f.name], siblings: e.fields })),
        ...Object.values(e.actions).flatMap((a) => Object.values(a.input).map((f) => ({ f, base: ['actions', a.name, 'input', f.name], siblings: a.input }))),
      ];
      for (const { f, base, siblings } of places) {
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
        for (const [mine, theirs] of Object.entries(l.fills ?? {})) {
          if (!siblings[mine] || mine === f.name)
            unknown(
              file,
              `${p}/fills/${mine}`,
              'field',
              mine,
              Object.keys(siblings).filter((n) => n !== f.name),
              { of: `to fill (of "${e.name}", besides "${f.name}")` },
            );
          if (!target.fields[theirs]) unknown(file, `${p}/fills/${mine}`, 'field', theirs, Object.keys(target.fields), { of: `of entity "${l.entity}"` });
          else if (siblings[mine] && siblings[mine].type !== target.fields[theirs].type)
            err(file, `${p}/fills/${mine}`, `"${mine}" (${siblings[mine].type}) cannot take "${theirs}" of "${l.entity}" (${target.fields[theirs].type})`);
        }
        if (!hasKey(l.messageKey)) err(file, `${p}/messageKey`, `unknown message key "${l.messageKey}" (add it to metadata/i18n in both languages)`);
      }
    }
  },
} satisfies Check;
