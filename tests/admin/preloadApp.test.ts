/**
 * The build's preload links (admin/preloadApp.ts, issue 21): index.html names the app's chunk and
 * everything it imports statically, but not the entry's own imports (the browser loads those
 * already) nor what the app loads lazily (layout, screens).
 */
import { describe, expect, it } from 'vitest';
import { appChunkFiles } from '../../admin/preloadApp.ts';

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
