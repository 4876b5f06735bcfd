/** metadata/rules: each named rule once, its message key in both languages, its pattern a valid regular expression. */
import { ptr } from '../load.ts';
import type { CompiledRule } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import { checkRuleExamples } from '../seed-hints.ts';
import { SINGLE_LINE_RULE } from '../runtime/field-schema.ts';

export function compileRules(ctx: CompileContext): Record<string, CompiledRule> {
  const { err, needKey } = ctx;
  const rules: Record<string, CompiledRule> = {};
  for (const f of ctx.src.rules) {
    for (const [name, r] of Object.entries((f.data as { rules: Record<string, Omit<CompiledRule, 'name'>> }).rules)) {
      if (rules[name]) {
        err(f.file, ptr('rules', name), `rule "${name}" is defined twice`);
        continue;
      }
      needKey(f.file, ptr('rules', name, 'messageKey'), r.messageKey, `rule "${name}"`);
      if (r.pattern) {
        try {
          new RegExp(r.pattern, 'u');
        } catch (e) {
          err(f.file, ptr('rules', name, 'pattern'), `not a valid regular expression: ${(e as Error).message}`);
        }
      }
      rules[name] = { name, ...r, params: r.params ?? {} };
      // the demo-data generator needs values that pass a pattern: the rule lists them
      checkRuleExamples(f.file, rules[name], err);
    }
  }
  // the engine applies it to every single-line string field (codegen/runtime/field-schema.ts)
  if (!rules[SINGLE_LINE_RULE]) err('metadata/rules', '', `rule "${SINGLE_LINE_RULE}" is missing: the engine applies it to every field of type string`);
  return rules;
}
