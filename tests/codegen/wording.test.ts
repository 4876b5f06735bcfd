/**
 * Issue 20 point 6: one state, one action, one word. The words the walk found mixed are gone: the
 * same claim state was "Sent back" in one place and "Remodify" in another (now "Rejected" for 已驳回,
 * as everywhere, and "Returned for changes" for 退回修改), settlement's "Reject rejection" (驳回异议)
 * is "Reject the objection", and every entity's reject action is 驳回 / Reject (fee items said 拒绝).
 */
import { describe, expect, it } from 'vitest';
import { messages, metadata } from '../../server/generated/index.ts';
import { LOCALES } from '../../codegen/runtime/model.ts';

const entries = (prefix: string) => Object.entries(messages['en-US']).filter(([k]) => k.startsWith(prefix));

describe('wording', () => {
  it('every reject action has the same label, in each language', () => {
    const rejects = Object.values(metadata.entities).flatMap((e) => Object.values(e.actions).filter((a) => a.name === 'reject'));
    expect(rejects.length).toBeGreaterThan(1);
    for (const loc of LOCALES) expect(new Set(rejects.map((a) => messages[loc][a.labelKey])).size, loc).toBe(1);
  });

  it('a Chinese state label has one English label across the claim and order state tables', () => {
    const english = new Map<string, Set<string>>();
    for (const [key, en] of entries('code.')) {
      if (!/^code\.(claimStatus|warehouseClaimStatus|purchaseOrderStatus|dealerOrderStatus|settlementStatus|stockAdjustStatus)\./.test(key)) continue;
      const zh = messages['zh-CN'][key];
      english.set(zh, (english.get(zh) ?? new Set()).add(en));
    }
    expect([...english].filter(([, s]) => s.size > 1).map(([zh, s]) => `${zh}: ${[...s].join(' / ')}`)).toEqual([]);
  });

  it('none of the words the walk found mixed is left', () => {
    const texts = Object.values(messages['en-US']);
    for (const word of ['Remodify', 'Sent back', 'Reject rejection'])
      expect(
        texts.filter((x) => x.includes(word)),
        word,
      ).toEqual([]);
    expect(Object.values(messages['zh-CN']).filter((x) => x.includes('拒绝'))).toEqual([]);
  });
});
