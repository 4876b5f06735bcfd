/** Our zh-CN dictionary covers every ra.* key of react-admin v5 (ra-language-english), and no more. */
import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { raChineseMessages } from '../../admin/src/i18n/zh-CN.ts';
import zhApp from '../../admin/src/generated/messages.zh-CN.json';
import enApp from '../../admin/src/generated/messages.en-US.json';

function leafKeys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix];
  return Object.entries(o).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

describe('zh-CN react-admin dictionary', () => {
  const en = leafKeys(englishMessages).sort();
  const zh = leafKeys(raChineseMessages).sort();

  it('has every key of ra-language-english', () => {
    expect(en.length).toBeGreaterThan(150);
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
  });
  it('has no key react-admin does not know', () => {
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
  });
  it('keeps the placeholders of each message', () => {
    const get = (o: unknown, k: string) => k.split('.').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o) as string;
    const vars = (s: string) => [...new Set(s.match(/%\{\w+\}/g) ?? [])].filter((v) => v !== '%{smart_count}').sort();
    const mismatched = en.filter((k) => {
      const want = vars(get(englishMessages, k));
      const have = vars(get(raChineseMessages, k));
      return want.some((v) => !have.includes(v) && !['%{recordRepresentation}', '%{field_lower_first}'].includes(v));
    });
    expect(mismatched).toEqual([]);
  });
  it('has Chinese text, not English copies', () => {
    const get = (o: unknown, k: string) => k.split('.').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o) as string;
    const untranslated = zh.filter(
      (k) => /[a-z]{4,}/i.test(get(raChineseMessages, k).replace(/%\{\w+\}/g, '')) && !/[\u4e00-\u9fff]/.test(get(raChineseMessages, k)),
    );
    expect(untranslated).toEqual([]);
  });
});

describe('shell and app messages', () => {
  it('shell texts exist in both languages (metadata/i18n/*/shell.json)', () => {
    const shell = (m: Record<string, string>) =>
      Object.keys(m)
        .filter((k) => k.startsWith('shell.'))
        .sort();
    expect(shell(enApp).length).toBeGreaterThan(30);
    expect(shell(enApp)).toEqual(shell(zhApp));
  });
  it('the generated bundles have the same keys', () => {
    expect(Object.keys(enApp).sort()).toEqual(Object.keys(zhApp).sort());
  });
});
