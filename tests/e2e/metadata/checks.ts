/**
 * The checks the suite runs on every screen it opens, each returning the problems it found (an
 * empty list passes), so one failure message lists them all:
 *   - cut-off text: identifier cells, table headers and menu labels (scrollWidth > clientWidth);
 *   - the pinned operation column cutting through a value;
 *   - text of the other language (catalogue labels, code values, messages, dates, untranslated
 *     keys), user data excepted: every string the server sent as data;
 *   - axe-core's WCAG 2.0/2.1 A and AA rules, serious and critical violations;
 *   - inputs without a label.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import axe from 'axe-core';
import type { Locator, Page } from '@playwright/test';
import englishMessages from 'ra-language-english';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { raChineseMessages } from '../../../admin/src/i18n/zh-CN.ts';

/* ------------------------------------------------------------------ cut-off text */

/**
 * Cells of identifier columns (by their header's test id lean-th-<field>) in every list table of
 * the page, every table header, and every menu label whose text is wider than its box.
 */
export async function cutOffText(page: Page, identifierFields: readonly string[]): Promise<string[]> {
  return page.evaluate((ids) => {
    const out: string[] = [];
    const cut = (el: Element) => (el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth;
    const text = (el: Element) => (el.textContent ?? '').trim();
    for (const table of document.querySelectorAll('table.lt')) {
      const heads = [...table.querySelectorAll('thead th')];
      for (const th of heads) if (th.getAttribute('data-testid')?.startsWith('lean-th-') && cut(th)) out.push(`header "${text(th)}" is cut off (${(th as HTMLElement).scrollWidth} > ${(th as HTMLElement).clientWidth} px)`);
      heads.forEach((th, i) => {
        const field = th.getAttribute('data-testid')?.replace('lean-th-', '');
        if (!field || !ids.includes(field)) return;
        for (const tr of table.querySelectorAll('tbody tr[data-testid="lean-row"]')) {
          const td = tr.children[i];
          if (td && cut(td)) out.push(`identifier ${field} "${text(td)}" is cut off (${(td as HTMLElement).scrollWidth} > ${(td as HTMLElement).clientWidth} px)`);
        }
      });
    }
    for (const label of document.querySelectorAll('[data-testid="menu"] .MuiListItemText-primary')) {
      const el = label as HTMLElement;
      if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1) out.push(`menu label "${text(el)}" is cut off`);
    }
    return out;
  }, [...identifierFields]);
}

/**
 * The pinned operation column must never cut through a value: in each list table, at the left end
 * and at two scroll positions, no data cell of the first row may show its left end while its right
 * end lies under the pinned column (hit-tested, so the curtain and stacking are what the user sees).
 */
export async function pinnedColumnCuts(page: Page): Promise<string[]> {
  const out: string[] = [];
  const wraps = page.locator('.lt-wrap:has(thead .lt-actions-h)');
  for (let w = 0; w < (await wraps.count()); w++) {
    const wrap = wraps.nth(w);
    for (const at of [0, 0.37, 0.81]) {
      const found = await wrap.evaluate(async (el, fraction) => {
        el.scrollLeft = Math.round((el.scrollWidth - el.clientWidth) * fraction);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const row = el.querySelector('tbody tr[data-testid="lean-row"]');
        const pinned = row?.querySelector('.lt-actions');
        if (!row || !pinned) return [];
        const box = el.getBoundingClientRect();
        const problems: string[] = [];
        for (const td of row.querySelectorAll('td:not(.lt-actions)')) {
          const r = td.getBoundingClientRect();
          const y = r.top + r.height / 2;
          const left = Math.max(r.left + 2, box.left + 1);
          const right = Math.min(r.right - 2, box.right - 1);
          if (right <= left || !(td.textContent ?? '').trim()) continue;
          const atLeft = document.elementFromPoint(left, y);
          const atRight = document.elementFromPoint(right, y);
          if (atLeft && td.contains(atLeft) && atRight && pinned.contains(atRight)) problems.push(`"${(td.textContent ?? '').trim()}" is cut by the pinned column at scroll ${el.scrollLeft} px`);
        }
        return problems;
      }, at);
      out.push(...found);
    }
    await wrap.evaluate((el) => {
      el.scrollLeft = 0;
    });
  }
  return out;
}

/* ------------------------------------------------------------------ the other language */

type Dict = Record<string, unknown>;
const flatten = (d: Dict, into: string[] = []): string[] => {
  for (const v of Object.values(d)) {
    if (typeof v === 'string') into.push(v);
    else if (v && typeof v === 'object') flatten(v as Dict, into);
  }
  return into;
};
const bundle = (locale: Locale): string[] => {
  const { $comment: _c, ...rest } = JSON.parse(readFileSync(resolve(`admin/src/generated/messages.${locale}.json`), 'utf8')) as Record<string, string>;
  return [...Object.values(rest), ...flatten((locale === 'zh-CN' ? raChineseMessages : englishMessages) as Dict)];
};
const PLACEHOLDER = /%\{\w+\}|\|\|\|\|/g;
const HAS_PLACEHOLDER = /%\{\w+\}|\|\|\|\|/;
const wordsOf = (s: string): string[] => s.replace(PLACEHOLDER, ' ').match(/[A-Za-z]{3,}/g)?.map((w) => w.toLowerCase()) ?? [];
/** month and weekday names: an English date in a Chinese page */
const DATE_WORDS = 'january february march april june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun'.split(' ');

export interface ForeignText {
  /** whole texts only the other language's catalogue has */
  exact: string[];
  /** lower-case words of the other language's catalogue this language's never uses (checked on the Chinese page) */
  words: string[];
  /** the other language is written in CJK characters (checked on the English page) */
  cjk: boolean;
}

const foreignCache: Partial<Record<Locale, ForeignText>> = {};

/** What would betray the other language on a page in `locale`, from the compiled catalogues. */
export function foreignTextOf(locale: Locale): ForeignText {
  if (foreignCache[locale]) return foreignCache[locale]!;
  const other: Locale = locale === 'zh-CN' ? 'en-US' : 'zh-CN';
  const mine = bundle(locale);
  const theirs = bundle(other);
  const mineSet = new Set(mine);
  const mineWords = new Set(mine.flatMap(wordsOf));
  const exact = [...new Set(theirs.filter((s) => !mineSet.has(s) && !HAS_PLACEHOLDER.test(s) && s.trim().length > 1))];
  const words = locale === 'zh-CN' ? [...new Set([...theirs.flatMap(wordsOf), ...DATE_WORDS])].filter((w) => !mineWords.has(w)) : [];
  return (foreignCache[locale] = { exact, words, cjk: locale === 'en-US' });
}

/**
 * Text of the other language on the page (text nodes, title / aria-label / placeholder / alt, the
 * document title), and untranslated message keys. Strings the server sent as data are user data and
 * may be in either language; they are taken out of a text before it is judged.
 */
export async function otherLanguage(page: Page, locale: Locale, data: ReadonlySet<string>): Promise<string[]> {
  const foreign = foreignTextOf(locale);
  // only data that could look foreign matters: CJK on the English page, Latin letters on the Chinese one
  const relevant = [...data].filter((d) => (foreign.cjk ? /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/.test(d) : /[A-Za-z]{3,}/.test(d))).sort((a, b) => b.length - a.length);
  return page.evaluate(
    ({ exact, words, cjk, data }) => {
      const exactSet = new Set(exact);
      const wordSet = new Set(words);
      const dataSet = new Set(data);
      const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
      const KEY = /^(route|menu|field|button|action|code|codeTable|ui|error|message|validation|rule|shell|ra|app|entity)\.[A-Za-z0-9_.]+$/;
      const found = new Set<string>();
      const judge = (raw: string, where: string) => {
        const t = raw.trim();
        if (!t || dataSet.has(t)) return;
        if (KEY.test(t)) {
          found.add(`untranslated key "${t}" (${where})`);
          return;
        }
        if (exactSet.has(t)) {
          found.add(`"${t}" (${where})`);
          return;
        }
        const suspicious = cjk ? CJK.test(t) : (t.match(/[A-Za-z]{3,}/g) ?? []).some((w) => wordSet.has(w.toLowerCase()));
        if (!suspicious) return;
        let rest = t;
        for (const d of data) if (rest.includes(d)) rest = rest.split(d).join(' ');
        const still = cjk ? CJK.test(rest) : (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => wordSet.has(w.toLowerCase()));
        if (cjk ? still : (still as string[]).length) found.add(`"${t}" (${where})`);
      };
      const describe = (el: Element | null): string => {
        if (!el) return '?';
        const id = el.closest('[data-testid]')?.getAttribute('data-testid');
        return `${el.tagName.toLowerCase()}${id ? ` in ${id}` : ''}`;
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
        judge(n.textContent ?? '', describe(parent));
      }
      for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt]'))
        for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
          const v = el.getAttribute(a);
          if (v) judge(v, `${a} of ${describe(el)}`);
        }
      judge(document.title, 'document title');
      return [...found];
    },
    { exact: foreign.exact, words: foreign.words, cjk: foreign.cjk, data: relevant },
  );
}

/* ------------------------------------------------------------------ accessibility */

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** rows past the sixth carry the same markup and classes (striped or not) as the first six: left out to keep axe fast */
const REPEATED_ROWS = '[data-testid="lean-row"]:nth-child(n+7)';

/**
 * axe-core's serious and critical violations of the WCAG 2.0/2.1 A and AA rules, on the page or
 * inside `include`. axe is injected once per page load (the app navigates without reloading) and
 * run in the page itself: @axe-core/playwright would inject it again and open a blank page to
 * finish every run, which doubled the suite's time; this app has no frames to reach into.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const context = { include: include ? [include] : ['html'], exclude: [REPEATED_ROWS] };
  const options = { runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'] };
  const result = await page.evaluate(([c, o]) => (window as unknown as { axe: typeof axe }).axe.run(c as axe.ElementContext, o as axe.RunOptions), [context, options] as const);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}x): ${v.help}; e.g. ${(v.nodes[0]?.html ?? '').slice(0, 160)}: ${(v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`);
}

/** Every visible input, text area and select of `scope` has an accessible label. */
export async function unlabelledInputs(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const out: string[] = [];
    const nameOf = (el: HTMLElement): string => {
      const aria = el.getAttribute('aria-label')?.trim();
      if (aria) return aria;
      const by = el.getAttribute('aria-labelledby');
      if (by) {
        const t = by
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
          .join(' ')
          .trim();
        if (t) return t;
      }
      const labels = (el as HTMLInputElement).labels;
      const fromLabels = labels ? [...labels].map((l) => l.textContent?.trim() ?? '').join(' ').trim() : '';
      return fromLabels || (el.getAttribute('title') ?? '').trim();
    };
    for (const el of root.querySelectorAll<HTMLElement>('input, textarea, select, [role="combobox"], [role="spinbutton"], [role="textbox"]')) {
      if ((el as HTMLInputElement).type === 'hidden' || el.getAttribute('aria-hidden') === 'true') continue;
      const visible = el.offsetWidth > 0 || el.offsetHeight > 0 || (el as HTMLInputElement).type === 'file';
      if (!visible) continue;
      if (!nameOf(el)) out.push(`${el.tagName.toLowerCase()}[name=${el.getAttribute('name') ?? ''}] has no label`);
    }
    return out;
  });
}

/**
 * The spec's mobile mode at a phone's width: the page does not scroll sideways; the list's
 * identifier column (or its first column) is in view, left of the pinned operation column, in the
 * header and the first rows; every toolbar button (btn-*) and the header's controls lie within
 * the viewport's width (a phone user reaches them without sideways scrolling).
 */
export async function phoneLayoutProblems(page: Page, identifierFields: readonly string[]): Promise<string[]> {
  return page.evaluate((ids) => {
    const out: string[] = [];
    const vw = window.innerWidth;
    const doc = document.documentElement;
    if (doc.scrollWidth > vw) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${vw} px)`);
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el: Element) => el.getAttribute('data-testid') ?? (el.textContent ?? '').trim().slice(0, 30);
    for (const el of document.querySelectorAll('main [data-testid^="btn-"], [data-testid="navbar"] button')) {
      if (!shown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < 0 || r.right > vw + 0.5) out.push(`button ${name(el)} is outside the viewport (${Math.round(r.left)}..${Math.round(r.right)} of ${vw} px)`);
    }
    for (const wrap of document.querySelectorAll('main .lt-wrap')) {
      if (!shown(wrap)) continue;
      const box = wrap.getBoundingClientRect();
      const pinned = wrap.querySelector('thead .lt-actions-h');
      const right = Math.min(box.right, vw, pinned ? pinned.getBoundingClientRect().left : Infinity);
      const heads = [...wrap.querySelectorAll('thead th[data-testid^="lean-th-"]')];
      const id = heads.find((th) => ids.includes(th.getAttribute('data-testid')!.slice('lean-th-'.length))) ?? heads[0];
      if (!id) continue;
      const column = [...(id.parentElement?.children ?? [])].indexOf(id);
      const cells = [id, ...[...wrap.querySelectorAll('tbody tr[data-testid="lean-row"]')].slice(0, 5).map((tr) => tr.children[column])];
      for (const cell of cells) {
        if (!cell) continue;
        const r = cell.getBoundingClientRect();
        if (r.left < Math.max(box.left, 0) - 0.5 || r.right > right + 0.5)
          out.push(`identifier cell "${(cell.textContent ?? '').trim()}" is not in view (${Math.round(r.left)}..${Math.round(r.right)}, visible ${Math.round(box.left)}..${Math.round(right)} px)`);
      }
    }
    return out;
  }, [...identifierFields]);
}

/**
 * A dialog fits a phone's screen: its paper lies within the viewport, and every input and button
 * in it lies within the paper (inside a scrolling part of the dialog, within that part).
 */
export async function dialogFitProblems(dialog: Locator): Promise<string[]> {
  return dialog.evaluate((root) => {
    const out: string[] = [];
    const paper = root.querySelector('.MuiDialog-paper');
    if (!paper) return ['no dialog paper'];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const p = paper.getBoundingClientRect();
    if (p.left < 0 || p.right > vw + 0.5 || p.top < 0 || p.bottom > vh + 0.5)
      out.push(`the dialog (${Math.round(p.left)},${Math.round(p.top)}..${Math.round(p.right)},${Math.round(p.bottom)}) is not within ${vw} x ${vh}`);
    /** the nearest ancestor inside the paper that scrolls (the content, a grid), else the paper */
    const frameOf = (el: Element): Element => {
      for (let a = el.parentElement; a && a !== paper; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (/(auto|scroll)/.test(s.overflowX + s.overflowY)) return a;
      }
      return paper;
    };
    for (const el of paper.querySelectorAll('input:not([type="hidden"]):not([aria-hidden="true"]), textarea:not([aria-hidden="true"]), button, [role="combobox"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(el).visibility === 'hidden' || (el as HTMLInputElement).hidden) continue;
      const frame = frameOf(el);
      const f = frame.getBoundingClientRect();
      // in a scrolling frame only the sideways position matters (the frame scrolls down to it)
      const vertical = frame === paper ? r.top < f.top - 0.5 || r.bottom > f.bottom + 0.5 : false;
      if (r.left < f.left - 0.5 || r.right > f.right + 0.5 || vertical) {
        const what = el.getAttribute('data-testid') ?? el.getAttribute('name') ?? el.getAttribute('aria-label') ?? el.tagName.toLowerCase();
        out.push(`${what} (${Math.round(r.left)}..${Math.round(r.right)}, ${Math.round(r.top)}..${Math.round(r.bottom)}) lies outside the dialog`);
      }
    }
    return out;
  });
}
