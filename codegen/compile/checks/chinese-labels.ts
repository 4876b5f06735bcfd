/**
 * The labels a user reads (entities, fields, actions and their inputs, screen titles, columns,
 * filters, menu groups, rule messages) have Chinese in their zh-CN text: the rule of
 * runtime/chinese-text.ts, the same the i18n test asks. (Code values are checked where they are
 * compiled, code-tables.ts, with their languageNeutral mark.) Reported at the catalogue key.
 */
import { ptr } from '../../load.ts';
import { chineseLabelProblem } from '../../runtime/chinese-text.ts';
import type { Check } from '../run-checks.ts';

export default {
  about: 'the zh-CN text of every label a user reads has Chinese in it',
  run({ model, err, text, hasKey }) {
    const keys = new Map<string, string>();
    const add = (key: string, what: string) => {
      if (!keys.has(key)) keys.set(key, what);
    };
    add(model.app.titleKey, 'the app title');
    for (const g of model.app.menuGroups) add(g.titleKey, `menu group "${g.key}"`);
    for (const r of Object.values(model.rules)) add(r.messageKey, `rule "${r.name}"`);
    for (const e of Object.values(model.entities)) {
      add(e.labelKey, `entity "${e.name}"`);
      for (const f of Object.values(e.fields)) add(f.labelKey, `field "${e.name}.${f.name}"`);
      for (const a of Object.values(e.actions)) {
        add(a.labelKey, `action "${e.name}.${a.name}"`);
        for (const i of Object.values(a.input)) add(i.labelKey, `input "${i.name}" of action "${e.name}.${a.name}"`);
      }
    }
    for (const s of model.screens) {
      add(s.titleKey, `screen "${s.name}"`);
      for (const c of s.columns) add(c.labelKey, `column "${c.field}" of screen "${s.name}"`);
      for (const f of s.filters) add(f.labelKey, `filter "${f.field}" of screen "${s.name}"`);
    }
    for (const [key, what] of keys) {
      // a missing key is reported where it is named
      if (!hasKey(key)) continue;
      const problem = chineseLabelProblem(text('zh-CN', key));
      if (problem) err('metadata/i18n/zh-CN', ptr(...key.split('.')), `"${key}" (${what}): ${problem}`);
    }
  },
} satisfies Check;
