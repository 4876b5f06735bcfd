/**
 * metadata entity "compare": cross-field rules (validTo >= validFrom, validFrom >= $today on
 * create) checked here and compiled for codegen/runtime/compare-rules.ts. Both fields exist and
 * are of comparable kinds (dates and datetimes, or numbers); `$today` only with a date or datetime.
 * Each rule without its own messageKey gets one, `compare.<entity>.<field>.<i>`, written into the
 * bundles in both languages from the templates `validation.compare.<kind>.<op>` with the other
 * field's label filled in ("Must be on or after Valid from"), so the message names what to fix
 * and neither the server nor the browser translates a label at run time.
 */
import { ptr } from '../load.ts';
import { LOCALES, TODAY, type CompareOp, type CompiledCompare, type CompiledEntity, type CompiledField } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import type { RawEntity } from './raw.ts';

const OP_NAMES: Record<CompareOp, string> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte', '=': 'eq', '!=': 'ne' };

type Kind = 'date' | 'number';
const kindOf = (f: CompiledField): Kind | null =>
  f.type === 'date' || f.type === 'datetime' ? 'date' : f.type === 'integer' || f.type === 'decimal' ? 'number' : null;

/** The message template of a rule: by the kind of its values, or "today". */
export const compareTemplateKey = (kind: Kind | 'today', op: CompareOp): string => `validation.compare.${kind}.${OP_NAMES[op]}`;

export function compileCompares(ctx: CompileContext, file: string, raw: RawEntity, entity: CompiledEntity): void {
  if (!raw.compare?.length) return;
  const fieldNames = Object.keys(entity.fields);
  const compiled: CompiledCompare[] = [];
  raw.compare.forEach((r, i) => {
    const at = (...p: (string | number)[]) => ptr('compare', i, ...p);
    const field = entity.fields[r.field];
    if (!field) return ctx.unknown(file, at('field'), 'field', r.field, fieldNames, { of: `of entity "${entity.name}"`, prefix: 'compare: ' });
    const kind = kindOf(field);
    if (!kind) return ctx.err(file, at('field'), `compare: field "${r.field}" is a ${field.type}; only date, datetime, integer and decimal fields compare`);
    const vsToday = r.other === TODAY;
    const other = vsToday ? null : entity.fields[r.other];
    if (!vsToday && !other)
      return ctx.unknown(file, at('other'), 'field', r.other, [...fieldNames, TODAY], { of: `of entity "${entity.name}"`, prefix: 'compare: ' });
    if (vsToday && kind !== 'date') return ctx.err(file, at('other'), `compare: "${TODAY}" compares dates; field "${r.field}" is a ${field.type}`);
    if (other && kindOf(other) !== kind)
      return ctx.err(
        file,
        at('other'),
        `compare: field "${r.field}" (${field.type}) and field "${r.other}" (${other.type}) are not of one kind (dates and datetimes, or numbers)`,
      );
    if (other && other.name === field.name) return ctx.err(file, at('other'), `compare: field "${r.field}" is compared with itself`);
    let messageKey = r.messageKey;
    if (messageKey) ctx.needKey(file, at('messageKey'), messageKey, 'compare');
    else {
      messageKey = `compare.${entity.name}.${r.field}.${i}`;
      const template = compareTemplateKey(vsToday ? 'today' : kind, r.op);
      for (const loc of LOCALES) {
        const text = ctx.text(loc, template);
        if (text === undefined) {
          ctx.err(file, at('op'), `compare: message template "${template}" is missing in ${loc} (metadata/i18n/${loc}/compare.json)`);
          continue;
        }
        const label = other ? (ctx.text(loc, other.labelKey) ?? other.name) : '';
        ctx.cat.get(loc)?.set(messageKey, text.replace(/%\{other\}/g, label));
      }
    }
    compiled.push({ field: r.field, op: r.op, other: r.other, on: r.on ?? ['create', 'update'], messageKey });
  });
  if (compiled.length) entity.compare = compiled;
}
