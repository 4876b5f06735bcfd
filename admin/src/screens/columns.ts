/**
 * Metadata columns -> LeanTable columns: translated labels, one formatter per column (code labels,
 * yyyy-MM-dd dates, money, reference titles), alignment and width (from the field's type and maxLength,
 * format.ts; identifier columns also widen to their longest value). Rebuilt only when the language changes.
 */
import { useMemo } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { CompiledColumn, CompiledEntity } from '../../../codegen/runtime/model.ts';
import type { LeanColumn, LeanRecord } from './table/LeanTable.tsx';
import { shownValue } from '../../../codegen/runtime/person-name.ts';
import { alignOf, makeFormatter, widthOf } from './format.ts';
import { useReferenceTitles, type ReferenceTitles } from './references.ts';

export function buildColumns(
  entity: CompiledEntity | undefined,
  columns: readonly CompiledColumn[],
  translate: (k: string, o?: Record<string, unknown>) => string,
  locale: string,
  linkFirst = false,
  titles: ReferenceTitles = {},
): LeanColumn[] {
  return columns.map((c, i) => {
    const field = entity?.fields[c.field];
    const label = translate(c.labelKey, { _: c.field });
    const fmt = makeFormatter(field, c.format, translate, locale, titles[c.field]);
    const name = c.field;
    return {
      key: name,
      label,
      width: c.width ?? widthOf(field, c.format, label, translate, locale),
      fit: !!field?.identifier,
      align: alignOf(field, c.format),
      sortable: !!field?.sort,
      // a person is shown by the name the server sends beside the user ID (person-name.ts)
      text: (r: LeanRecord) => fmt(shownValue(field, r, name)),
      link: linkFirst && i === 0,
    };
  });
}

/** `rows`: the records on screen, whose reference columns show the referenced records' titles (references.ts) */
export function useLeanColumns(
  entity: CompiledEntity | undefined,
  columns: readonly CompiledColumn[],
  linkFirst = false,
  rows?: readonly LeanRecord[],
): LeanColumn[] {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const fields = useMemo(() => columns.map((c) => c.field), [columns]);
  const titles = useReferenceTitles(entity, fields, rows);
  return useMemo(() => buildColumns(entity, columns, translate, locale, linkFirst, titles), [entity, columns, translate, locale, linkFirst, titles]);
}
