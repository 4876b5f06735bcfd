/**
 * Metadata columns -> LeanTable columns: translated labels, one formatter per column (code labels,
 * yyyy-MM-dd dates, money), alignment and width (from the field's type and maxLength, format.ts;
 * identifier columns also widen to their longest value). Rebuilt only when the language changes.
 */
import { useMemo } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { CompiledColumn, CompiledEntity } from '../../../codegen/runtime/model.ts';
import type { LeanColumn, LeanRecord } from './table/LeanTable.tsx';
import { alignOf, makeFormatter, widthOf } from './format.ts';

export function buildColumns(
  entity: CompiledEntity | undefined,
  columns: readonly CompiledColumn[],
  translate: (k: string, o?: Record<string, unknown>) => string,
  locale: string,
  linkFirst = false,
): LeanColumn[] {
  return columns.map((c, i) => {
    const field = entity?.fields[c.field];
    const label = translate(c.labelKey, { _: c.field });
    const fmt = makeFormatter(field, c.format, translate, locale);
    const name = c.field;
    return {
      key: name,
      label,
      width: c.width ?? widthOf(field, c.format, label, translate, locale),
      fit: !!field?.identifier,
      align: alignOf(field, c.format),
      sortable: !!field?.sort,
      text: (r: LeanRecord) => fmt(r[name]),
      link: linkFirst && i === 0,
    };
  });
}

export function useLeanColumns(entity: CompiledEntity | undefined, columns: readonly CompiledColumn[], linkFirst = false): LeanColumn[] {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo(() => buildColumns(entity, columns, translate, locale, linkFirst), [entity, columns, translate, locale, linkFirst]);
}
