import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { scaled } from '../support/waits.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { installSessionAnswer } from '../../admin/src/providers/sessionMetadata.ts';
import clientMetadata from '../../admin/src/generated/metadata.json';
import clientSchemas from '../../admin/src/generated/schemas.json';
import { preloadDatePickers } from '../../admin/src/screens/form/DateInput.tsx';
import { abortRequests } from '../../admin/src/providers/httpClient.ts';
import { connection } from '../../admin/src/providers/connection.ts';
import { resetI18n } from '../../admin/src/providers/i18nProvider.ts';
import { mfaEvents } from '../../admin/src/auth/mfa.ts';
import { resetBrowserState } from './helpers.ts';

// This file runs before each test file, in the worker the test files share (vitest.config.ts,
// isolate: false): what one file changes in a module, the DOM or the browser's storage, the next
// file finds, unless it is put back here.

// The app installs its session's metadata from GET /api/meta before its modules load
// (admin/src/providers/sessionMetadata.ts); the components under test get the whole client model,
// every profile's part of the matrix included, before the test file imports them. Installed as the
// app installs it, so that what is built from it once (the route table) is built again when an
// earlier file installed other metadata (a fixture, a supplier's session view).
installSessionAnswer({ ...(clientMetadata as unknown as CompiledMetadata), schemas: clientSchemas as unknown as Record<string, EntitySchemas> });

const inBrowser = typeof window !== 'undefined'; // precompress.test.ts runs in node

// The messages an earlier file loaded or swapped in (a fixture's, a language switched) and its i18n
// provider are forgotten: each file starts as a page that has loaded none yet. Here, at the start of
// the file rather than at the end of the last one, because messageParts.test.ts leaves the module
// instances its last vi.resetModules made, not the ones an afterAll here would have imported.
resetI18n();
if (inBrowser) document.documentElement.removeAttribute('lang');

// The date inputs load MUI X's pickers on demand (admin/src/screens/form/DateInput.tsx); loaded
// here, so that a test's wait for a date field is for rendering, not for transforming the library.
await preloadDatePickers();

// findBy* and waitFor give up after 1 s by default: a lazily loaded screen rendering on a busy
// machine takes longer ("No Announcement!" not found at load 20-45). They return as soon as the
// element is there, so a longer limit costs nothing when the test passes.
configure({ asyncUtilTimeout: scaled(5_000) });

// After every test: Testing Library unmounts what the test rendered (it does so by itself only
// when the test runner's globals are on, and they are not here), so that nothing left mounted (a
// list's saved views, a dashboard's tiles) asks again; then the requests still under way are
// aborted: a read waits for a server that does not answer (the real fetch cannot reach a relative
// URL) for up to 10 minutes, and would otherwise call a later test's fetch mock. Then the globals a
// test stubbed (fetch, location) are restored, the storage is emptied, the session's module-level
// stores are reset, the clock is real again and the address is the start page.
afterEach(() => {
  cleanup();
  abortRequests();
  connection.reset();
  mfaEvents.reset();
  vi.useRealTimers();
  if (inBrowser) {
    resetBrowserState();
    window.history.replaceState(null, '', '/');
  } else vi.unstubAllGlobals();
});
