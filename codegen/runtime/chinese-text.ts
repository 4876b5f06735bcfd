/**
 * The one rule of "the Chinese catalogue really is Chinese": a zh-CN label holds at least one CJK
 * character, unless it is declared language-neutral (a code value's "languageNeutral": true, for a
 * text rightly the same in both languages, such as a standard's name "ISO 9001"). Codegen refuses
 * a label that breaks it (codegen/compile/code-tables.ts, checks/chinese-labels.ts); the i18n test
 * asks the same function, so the two never disagree.
 */
const CJK = /[\u3400-\u9fff]/;

export const hasChinese = (text: string | undefined): boolean => typeof text === 'string' && CJK.test(text);

/** The problem with a zh-CN label, or null: `where` names it, the hint says how to fix it. */
export function chineseLabelProblem(text: string | undefined, languageNeutral = false): string | null {
  if (languageNeutral || hasChinese(text)) return null;
  return `its zh-CN text ${JSON.stringify(text ?? '')} has no Chinese: translate it`;
}
