import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { scaled } from '../support/waits.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { installMetadata } from '../../admin/src/generated/index.ts';
import clientMetadata from '../../admin/src/generated/metadata.json';
import clientSchemas from '../../admin/src/generated/schemas.json';
import { preloadDatePickers } from '../../admin/src/screens/form/DateInput.tsx';

// The app installs its session's metadata from GET /api/meta before its modules load
// (admin/src/providers/sessionMetadata.ts); the components under test get the whole client model,
// every profile's part of the matrix included, before the test file imports them.
installMetadata(clientMetadata as unknown as CompiledMetadata, clientSchemas as unknown as Record<string, EntitySchemas>);

// The date inputs load MUI X's pickers on demand (admin/src/screens/form/DateInput.tsx); loaded
// here, so that a test's wait for a date field is for rendering, not for transforming the library.
await preloadDatePickers();

// findBy* and waitFor give up after 1 s by default: a lazily loaded screen rendering on a busy
// machine takes longer ("No Announcement!" not found at load 20-45). They return as soon as the
// element is there, so a longer limit costs nothing when the test passes.
configure({ asyncUtilTimeout: scaled(5_000) });

// Testing Library unmounts what a test rendered only when the test runner's globals are on (they
// are not here): unmount after every test, so that nothing a test left mounted (a list's saved
// views, a query's retries) calls the next test's fetch.
afterEach(cleanup);
