/**
 * Lifecycle hooks in metadata: an entity's "hooks" are checked by the meta-schema and compiled in
 * a fixed order, and codegen emits the EntityHooks interface server/hooks/index.ts must satisfy
 * (so `tsc` asks for every declared hook; tests/server/hooks.test.ts checks that half).
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const m = useMetadataCopy('codegen-hooks-');

describe('entity hooks', () => {
  it('are compiled in the order the engine calls them, and EntityHooks asks for each', async () => {
    m.edit('entities/notice.json', (j) => (j.hooks = ['afterWrite', 'validate']));
    const r = await m.run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    expect(r.model!.entities.notice.hooks).toEqual(['validate', 'afterWrite']);
    expect(r.model!.entities.order.hooks).toEqual([]);
    const ts = r.files!.get('server/generated/hooks.ts')!;
    expect(ts).toContain('  notice: {\n    validate: ValidateHook<T.Notice, MessageKey>;\n    afterWrite: AfterWriteHook<T.Notice>;\n  };');
    expect(ts).toContain('  consultingFeeItem: {\n    validate: ValidateHook<T.ConsultingFeeItem, MessageKey>;\n  };');
    // the keys a hook may report: validation.* and error.*, nothing else
    expect(ts).toContain('  | "validation.urgentPriceBelowOrdinary"');
    expect(ts).not.toMatch(/\| "field\./);
  });

  it('an unknown hook name is refused by the meta-schema, with the closest one', async () => {
    m.edit('entities/notice.json', (j) => (j.hooks = ['validat']));
    await m.expectError(
      'entities/notice.json',
      '/hooks/0',
      /must be equal to one of the allowed values: \["validate","beforeWrite","afterWrite"\] \(did you mean "validate"\?\)/,
    );
  });
});
