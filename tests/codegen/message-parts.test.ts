/**
 * The admin's messages in two parts (issue 21, docs/performance-wan.md section 5): the public part,
 * which a page without a session loads before its first render, and the session part, the rest.
 * Together they are the bundle, each message once, in both languages; the public part holds what
 * the public metadata names and what app.json's `publicMessages` declares, and nothing else.
 * (That the public pages' code names no other message is checked on the build: tests/e2e/sign-in-path.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import enAll from '../../admin/src/generated/messages.en-US.json';
import zhAll from '../../admin/src/generated/messages.zh-CN.json';
import enPublic from '../../admin/src/generated/messages-public.en-US.json';
import zhPublic from '../../admin/src/generated/messages-public.zh-CN.json';
import enSession from '../../admin/src/generated/messages-session.en-US.json';
import zhSession from '../../admin/src/generated/messages-session.zh-CN.json';
import { metadata } from '../../server/generated/index.ts';
import { isKeyOrBelow, publicMetadata, splitMessages } from '../../codegen/runtime/public-metadata.ts';
import { useMetadataCopy } from './metadata-copy.ts';

type Messages = Record<string, string>;
const withoutComment = (m: Messages) => Object.fromEntries(Object.entries(m).filter(([k]) => k !== '$comment'));
const LANGUAGES = {
  'en-US': { all: withoutComment(enAll), public: withoutComment(enPublic), session: withoutComment(enSession) },
  'zh-CN': { all: withoutComment(zhAll), public: withoutComment(zhPublic), session: withoutComment(zhSession) },
};

describe("the admin's message bundle in a public and a session part", () => {
  for (const [locale, parts] of Object.entries(LANGUAGES)) {
    it(`${locale}: the two parts are the bundle, each message once`, () => {
      expect(Object.keys(parts.public).filter((k) => k in parts.session)).toEqual([]);
      expect({ ...parts.public, ...parts.session }).toEqual(parts.all);
    });
  }

  it('both languages put the same messages in the same part', () => {
    expect(Object.keys(LANGUAGES['zh-CN'].public).sort()).toEqual(Object.keys(LANGUAGES['en-US'].public).sort());
  });

  it('the public part: what the public metadata names and what app.json declares, nothing else', () => {
    const pub = LANGUAGES['en-US'].public;
    const named = JSON.stringify(publicMetadata(metadata));
    const declared = metadata.app.publicMessages ?? [];
    expect(declared.length).toBeGreaterThan(0);
    for (const key of Object.keys(LANGUAGES['en-US'].all)) {
      const expected = named.includes(JSON.stringify(key)) || declared.some((p) => isKeyOrBelow(key, p));
      expect(key in pub, key).toBe(expected);
    }
    // the sign-in page's own texts and title are public; a business screen's title and the layout's texts are not
    expect(pub).toMatchObject({ 'shell.login.submit': expect.any(String), [metadata.app.titleKey]: expect.any(String), 'route.login': expect.any(String) });
    for (const key of ['route.orderShip', 'shell.tags.closeAll', 'code.accountStatus.602']) expect(key in pub, key).toBe(false);
  });

  it('a prefix names the key itself and the keys below it, not a longer name', () => {
    expect(isKeyOrBelow('shell.login', 'shell.login')).toBe(true);
    expect(isKeyOrBelow('shell.login.submit', 'shell.login')).toBe(true);
    expect(isKeyOrBelow('shell.loginx', 'shell.login')).toBe(false);
    const meta = { ...metadata, app: { ...metadata.app, publicMessages: ['a.b'] } };
    expect(splitMessages(meta, { 'a.b': '1', 'a.b.c': '2', 'a.bc': '3', 'z.z': '4' })).toEqual({
      public: { 'a.b': '1', 'a.b.c': '2' },
      session: { 'a.bc': '3', 'z.z': '4' },
    });
  });
});

describe("codegen's check of publicMessages", () => {
  const copy = useMetadataCopy('codegen-public-messages-');

  it('refuses an entry that names no message (a typo, or a key since renamed)', async () => {
    copy.edit('app.json', (j) => j.publicMessages.push('shell.logn'));
    const errs = await copy.errorsOf();
    const at = `metadata/app.json#/publicMessages/${metadata.app.publicMessages!.length}:`;
    expect(errs.find((e) => e.startsWith(at))).toMatch(/public message "shell\.logn" names no message of the catalogues/);
  });

  it('accepts the real metadata', async () => {
    expect(await copy.errorsOf()).toEqual([]);
  });
});
