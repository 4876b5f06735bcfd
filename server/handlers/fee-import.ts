// TEMPORARY placeholder while the Excel import is being built (see the helper task); not done.
import type { CollectionHandler } from '../engine/handler-types.ts';
import type { ConsultingFeeItemImportInput } from '../generated/types.ts';
export const importFeeItems: CollectionHandler<ConsultingFeeItemImportInput> = (ctx) => ctx.fail(501, 'error.internal');
