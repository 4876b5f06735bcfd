/**
 * Parents of child entities: `scope.parent` must name an entity whose rows can be scoped, and a
 * file entity's `onUpload` needs that parent, an action of it, and fields of it to set.
 */
import type { Check } from '../run-checks.ts';

export default {
  about: 'scope.parent points at a known entity; file.onUpload names an action and fields of that parent',
  run({ model, err, unknown, entityFile }) {
    const { entities } = model;
    for (const ent of Object.values(entities)) {
      const file = entityFile(ent.name);
      if (ent.scope.parent) {
        const target = ent.fields[ent.scope.parent]?.ref;
        if (target && !entities[target]) err(file, '/scope/parent', `parent entity "${target}" is unknown`);
      }
      const ou = ent.file?.onUpload;
      if (!ou) continue;
      const parent = ent.scope.parent ? entities[ent.fields[ent.scope.parent]?.ref ?? ''] : undefined;
      if (!parent) {
        err(file, '/file/onUpload', 'onUpload needs scope.parent (the entity whose action runs)');
        continue;
      }
      if (!parent.actions[ou.action])
        unknown(file, '/file/onUpload/action', 'action', ou.action, Object.keys(parent.actions), { of: `of entity "${parent.name}"` });
      for (const f of Object.keys(ou.setParent))
        if (!parent.fields[f]) unknown(file, `/file/onUpload/setParent/${f}`, 'field', f, parent.fieldOrder, { of: `of entity "${parent.name}"` });
    }
  },
} satisfies Check;
