/**
 * A list screen's action button must be usable on some row the screen can show: the action's
 * `from` states must meet the states its fixed filter (and, when every tab narrows the status,
 * its tabs) let through. Otherwise the button would sit there disabled for good, without a word
 * (the order confirm list, released lines only, once offered "print delivery cards", which needs
 * a confirmed line).
 */
import type { Check } from '../run-checks.ts';

const statesIn = (f: Record<string, unknown>, field: string): string[] | null =>
  field in f ? (Array.isArray(f[field]) ? (f[field] as unknown[]) : [f[field]]).map(String) : null;

export default {
  about: "a list screen's action button has rows to act on: the action's from-states meet the states its fixed filter and tabs list",
  run({ model, err, screenAt }) {
    for (const s of model.screens) {
      if (s.kind !== 'list' || !s.resource) continue;
      const e = model.entities[model.resources[s.resource] ?? ''];
      if (!e) continue;
      const { file, base } = screenAt(s.name);
      s.buttons.forEach((b, i) => {
        for (const a of Object.values(e.actions)) {
          if (a.internal || a.button !== b || !a.statusField || !a.from) continue;
          const field = a.statusField;
          let listed = statesIn(s.fixedFilter, field);
          const byTab = s.tabs.map((t) => statesIn(t.filter, field));
          if (s.tabs.length && byTab.every((x) => x)) {
            const union = new Set(byTab.flat() as string[]);
            listed = (listed ?? [...union]).filter((c) => union.has(c));
          }
          if (!listed || a.from.some((c) => listed!.includes(c))) continue;
          const table = model.codeTables[e.fields[field]?.codeTable ?? ''];
          const keys = (codes: string[]) => codes.map((c) => table?.values.find((v) => v.code === c)?.key ?? c).join(', ');
          err(
            file,
            `${base}/buttons/${i}`,
            `button "${b}": action "${a.name}" needs ${field} in [${keys(a.from)}], but this screen lists only [${keys(listed)}], so it could never be used here`,
          );
        }
      });
    }
  },
} satisfies Check;
