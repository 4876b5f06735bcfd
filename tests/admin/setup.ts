import '@testing-library/jest-dom/vitest';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { installMetadata } from '../../admin/src/generated/index.ts';
import clientMetadata from '../../admin/src/generated/metadata.json';
import clientSchemas from '../../admin/src/generated/schemas.json';

// The app installs its session's metadata from GET /api/meta before its modules load
// (admin/src/providers/sessionMetadata.ts); the components under test get the whole client model,
// every profile's part of the matrix included, before the test file imports them.
installMetadata(clientMetadata as unknown as CompiledMetadata, clientSchemas as unknown as Record<string, EntitySchemas>);
