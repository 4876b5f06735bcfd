/**
 * Every button a screen declares is backed by something the server does: an action of the screen's
 * entity that uses it, or the operation the button stands for (access.json `operation`) granted on
 * that entity, or, for a button `on: "fileChild"`, on a file entity whose scope.parent is it (its
 * uploads). Anything else would render nothing, or a button that can only fail, so it is an error.
 */
import type { CompiledEntity, CompiledMetadata, Operation } from '../../runtime/model.ts';
import type { Check } from '../run-checks.ts';

/** export follows read unless the entity declares it (server/engine/access.ts operationGrant) */
const granted = (e: CompiledEntity, op: Operation): boolean => {
  const g = op === 'export' && !e.access.export ? e.access.read : e.access[op];
  return !!g && Object.keys(g).length > 0;
};

const fileChildren = (model: Pick<CompiledMetadata, 'entities'>, parent: CompiledEntity): CompiledEntity[] =>
  Object.values(model.entities).filter((c) => c.file && c.scope.parent && c.fields[c.scope.parent]?.ref === parent.name);

export default {
  about: 'each screen button is backed by an action of its entity or by a granted operation',
  run({ model, err, screenAt }) {
    for (const s of model.screens) {
      if (!s.buttons.length) continue;
      const { file, base } = screenAt(s.name);
      const en = s.resource ? model.resources[s.resource] : undefined;
      const e = en ? model.entities[en] : undefined;
      s.buttons.forEach((b, i) => {
        const pointer = `${base}/buttons/${i}`;
        if (!s.resource) return err(file, pointer, `button "${b}" needs the screen to name a resource (buttons act on its records)`);
        // an unknown resource or button is reported by the screen step
        if (!e) return;
        const def = model.access.buttons[b];
        if (Object.values(e.actions).some((a) => a.button === b && !a.internal)) return;
        if (!def) return;
        if (!def.operation) {
          return err(
            file,
            pointer,
            `button "${b}" is backed by nothing: no action of entity "${e.name}" has "button": "${b}" and metadata/access.json gives the button no "operation"`,
          );
        }
        const targets = def.on === 'fileChild' ? fileChildren(model, e) : [e];
        if (def.on === 'fileChild' && !targets.length) {
          return err(file, pointer, `button "${b}" works on uploaded files, but no file entity has entity "${e.name}" as its scope.parent`);
        }
        if (!targets.some((t) => granted(t, def.operation!))) {
          const names = targets.map((t) => `"${t.name}"`).join(' or ');
          return err(
            file,
            pointer,
            `button "${b}" performs "${def.operation}", which entity ${names} grants to nobody (add "${def.operation}" to its "access", or remove the button)`,
          );
        }
      });
    }
  },
} satisfies Check;
