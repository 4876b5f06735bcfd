// TEMPORARY: business demo data for every entity is being written (helper task). Base data only for now.
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { RowWriter } from './writer.ts';
export function seedBusiness(_w: RowWriter, _meta: CompiledMetadata, _opts: { scale: number; seed: number }): void {}
