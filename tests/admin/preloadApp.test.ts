/**
 * The build's preload links (admin/preloadApp.ts, issue 21): index.html names the app's chunk and
 * everything it imports statically, but not the entry's own imports (the browser loads those
 * already) nor what the app loads lazily (layout, screens).
 */
import { describe, expect, it } from 'vitest';
import { appChunkFiles, messageChunks, messagesPreloadScript } from '../../admin/preloadApp.ts';
import { pickLocale } from '../../admin/src/providers/localeChoice.ts';

const chunk = (fileName: string, imports: string[] = [], facadeModuleId: string | null = null) => ({ type: 'chunk', fileName, imports, facadeModuleId });

describe('appChunkFiles', () => {
  const bundle = {
    'assets/index.js': chunk('assets/index.js', ['assets/react.js'], '/p/admin/src/main.tsx'),
    'assets/react.js': chunk('assets/react.js'),
    'assets/App.js': chunk('assets/App.js', ['assets/react.js', 'assets/mui.js', 'assets/index.js'], '/p/admin/src/App.tsx'),
    'assets/mui.js': chunk('assets/mui.js', ['assets/react.js', 'assets/emotion.js']),
    'assets/emotion.js': chunk('assets/emotion.js', ['assets/mui.js']),
    'assets/Layout.js': chunk('assets/Layout.js', ['assets/mui.js'], '/p/admin/src/layout/Layout.tsx'),
    'assets/style.css': { type: 'asset', fileName: 'assets/style.css' },
  };

  it("lists the app's chunk and its static imports, each once, without the entry's", () => {
    expect(appChunkFiles(bundle, 'assets/index.js')).toEqual(['assets/App.js', 'assets/mui.js', 'assets/emotion.js']);
  });

  it('lists nothing when there is no app chunk (the app is not split from the entry)', () => {
    const { ['assets/App.js']: _app, ...withoutApp } = bundle;
    expect(appChunkFiles(withoutApp, 'assets/index.js')).toEqual([]);
  });
});

describe("the inline script that preloads the first language's messages", () => {
  const bundle = {
    'assets/index.js': chunk('assets/index.js', [], '/p/admin/src/main.tsx'),
    'assets/messages-public.zh-CN-a.js': chunk('assets/messages-public.zh-CN-a.js', [], '/p/admin/src/generated/messages-public.zh-CN.json'),
    'assets/messages-session.zh-CN-c.js': chunk('assets/messages-session.zh-CN-c.js', [], '/p/admin/src/generated/messages-session.zh-CN.json'),
    'assets/messages-public.en-US-b.js': chunk('assets/messages-public.en-US-b.js', [], '/p/admin/src/generated/messages-public.en-US.json'),
    'assets/messages-session.en-US-d.js': chunk('assets/messages-session.en-US-d.js', [], '/p/admin/src/generated/messages-session.en-US.json'),
    'assets/ra.zh-CN-e.js': chunk('assets/ra.zh-CN-e.js', [], '/p/admin/src/i18n/ra.zh-CN.ts'),
    'assets/ra.en-US-f.js': chunk('assets/ra.en-US-f.js', [], '/p/admin/src/i18n/ra.en-US.ts'),
  };
  const file = {
    'zh-CN': { public: '/assets/messages-public.zh-CN-a.js', session: '/assets/messages-session.zh-CN-c.js', ra: '/assets/ra.zh-CN-e.js' },
    'en-US': { public: '/assets/messages-public.en-US-b.js', session: '/assets/messages-session.en-US-d.js', ra: '/assets/ra.en-US-f.js' },
  };
  const publicOf = (l: keyof typeof file) => [file[l].public, file[l].ra];
  const SUPPORTED = ['zh-CN', 'en-US'] as const;

  it("finds each language's message chunk", () => {
    expect(messageChunks(bundle)).toEqual({
      'zh-CN': { public: 'assets/messages-public.zh-CN-a.js', session: 'assets/messages-session.zh-CN-c.js', ra: 'assets/ra.zh-CN-e.js' },
      'en-US': { public: 'assets/messages-public.en-US-b.js', session: 'assets/messages-session.en-US-d.js', ra: 'assets/ra.en-US-f.js' },
    });
  });

  /** Runs the script against a stand-in page: the links it adds to <head> (href only). */
  function run(stored: string | null, languages: string[], storage: 'ok' | 'throws' = 'ok', token: string | null = null): string[] {
    const added: { rel: string; href: string; crossOrigin: string | null }[] = [];
    const env = {
      localStorage: {
        getItem: (k: string) => {
          if (storage === 'throws') throw new Error('private mode');
          return k === 'portal.locale' ? stored : k === 'portal.token' ? token : null;
        },
      },
      navigator: { languages, language: languages[0] },
      document: {
        createElement: () => ({ rel: '', href: '', crossOrigin: null as string | null }),
        head: { appendChild: (l: (typeof added)[number]) => added.push(l) },
      },
    };
    new Function('localStorage', 'navigator', 'document', messagesPreloadScript(messageChunks(bundle), SUPPORTED, 'zh-CN'))(
      env.localStorage,
      env.navigator,
      env.document,
    );
    for (const l of added) expect([l.rel, l.crossOrigin]).toEqual(['modulepreload', '']);
    return added.map((l) => l.href);
  }

  it("preloads the language the app will start in (the app's own choice): stored preference, browser languages, default", () => {
    const cases: [string | null, string[]][] = [
      [null, ['zh-CN']],
      [null, ['en-US', 'zh-CN']],
      [null, ['en-GB']],
      [null, ['zh-TW']],
      [null, ['fr-FR', 'en']],
      [null, ['fr-FR']],
      ['en-US', ['zh-CN']],
      ['zh-CN', ['en-US']],
      ['xx-XX', ['en-US']],
    ];
    for (const [stored, languages] of cases) {
      const expected = pickLocale(stored, languages, SUPPORTED, 'zh-CN')!;
      expect(run(stored, languages), `${stored} ${languages.join(',')}`).toEqual(publicOf(expected));
    }
    // the cases above do reach both languages by every rule
    expect(run(null, ['en-GB'])).toEqual(publicOf('en-US'));
    expect(run('zh-CN', ['en-US'])).toEqual(publicOf('zh-CN'));
    expect(run(null, ['fr-FR'])).toEqual(publicOf('zh-CN'));
  });

  it("preloads the session's part too when a token is stored (the app loads it before its first render then)", () => {
    expect(run('en-US', ['zh-CN'], 'ok', 'a.b.c')).toEqual([...publicOf('en-US'), file['en-US'].session]);
    expect(run(null, ['zh-CN'], 'ok', 'a.b.c')).toEqual([...publicOf('zh-CN'), file['zh-CN'].session]);
  });

  it('never throws: without storage it goes by the browser languages', () => {
    expect(run(null, ['en-US'], 'throws')).toEqual(publicOf('en-US'));
  });
});
