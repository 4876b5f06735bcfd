/** The tab bar's rules: pinned first and kept, at most 10, the oldest non-pinned dropped. */
import { describe, expect, it } from 'vitest';
import { addTab, closeAllTabs, closeOtherTabs, closeTab, MAX_TABS, type Tab } from '../../admin/src/layout/tagsStore.ts';

const tab = (path: string, pinned = false): Tab => ({ path, fullPath: path, titleKey: `t${path}`, pinned });
const home = tab('/dashboard', true);

describe('tabs', () => {
  it('the limit is metadata app.maxTabs (10)', () => {
    expect(MAX_TABS).toBe(10);
  });
  it('adds once per path and updates the full path', () => {
    let t = addTab([home], tab('/a'));
    t = addTab(t, { ...tab('/a'), fullPath: '/a?id=2' });
    expect(t.map((x) => x.fullPath)).toEqual(['/dashboard', '/a?id=2']);
  });
  it('drops the oldest non-pinned tab beyond the limit', () => {
    let t: Tab[] = [home];
    for (let i = 1; i <= 12; i++) t = addTab(t, tab(`/p${i}`));
    expect(t).toHaveLength(10);
    expect(t[0].path).toBe('/dashboard');
    expect(t.map((x) => x.path).slice(1)).toEqual(['/p4', '/p5', '/p6', '/p7', '/p8', '/p9', '/p10', '/p11', '/p12']);
  });
  it('keeps pinned tabs first even when added later', () => {
    const t = addTab([tab('/a')], home);
    expect(t.map((x) => x.path)).toEqual(['/dashboard', '/a']);
  });
  it('close, close others and close all never remove a pinned tab', () => {
    const t = [home, tab('/a'), tab('/b'), tab('/c')];
    expect(closeTab(t, '/b').map((x) => x.path)).toEqual(['/dashboard', '/a', '/c']);
    expect(closeTab(t, '/dashboard')).toHaveLength(4);
    expect(closeOtherTabs(t, '/b').map((x) => x.path)).toEqual(['/dashboard', '/b']);
    expect(closeAllTabs(t).map((x) => x.path)).toEqual(['/dashboard']);
  });
});
