/**
 * The checks of view entities (codegen/view-entities.ts) and of file.parentStates
 * (codegen/file-parent.ts), on broken copies of the real metadata.
 */
import { describe, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const { edit, expectError } = useMetadataCopy('codegen-views-');
const REPORT = 'entities/settlement-report.json';

describe('view entities', () => {
  it('an unknown source, a source field that does not exist, a group-by field not declared', async () => {
    edit(REPORT, (j) => (j.view.from = 'settlementLines'));
    await expectError(REPORT, '/view/from', /unknown entity "settlementLines"/);
    edit(REPORT, (j) => ((j.view.from = 'settlementLine'), (j.view.aggregates.totalQty.field = 'quantity')));
    await expectError(REPORT, '/view/aggregates/totalQty/field', /a sum needs a field of entity "settlementLine"/);
    edit(REPORT, (j) => ((j.view.aggregates.totalQty.field = 'qty'), delete j.fields.status));
    await expectError(REPORT, '/view/groupBy/2', /"status" must be declared as a field of this entity too/);
  });

  it('a field that is neither grouped nor aggregated, a group-by field of another type, a count that is no integer', async () => {
    edit(REPORT, (j) => (j.fields.note = { type: 'string', maxLength: 10, labelKey: 'field.common.remarks' }));
    await expectError(REPORT, '/fields/note', /neither a group-by field nor an aggregate/);
    edit(REPORT, (j) => (delete j.fields.note, (j.fields.period = { type: 'integer', minimum: 0, maximum: 9 })));
    await expectError(REPORT, '/fields/period', /must have the type of "settlementLine.period"/);
    edit(REPORT, (j) => ((j.fields.period = { type: 'string', maxLength: 7 }), (j.fields.lineCount = { type: 'decimal', precision: 10, scale: 2 })));
    await expectError(REPORT, '/fields/lineCount', /a count is an integer field/);
  });

  it('a view is read-only and has no version or audit columns', async () => {
    edit(REPORT, (j) => (j.access.update = { internal: true }));
    await expectError(REPORT, '/access/update', /a view is read-only/);
    edit(REPORT, (j) => (delete j.access.update, delete j.versioned));
    await expectError(REPORT, '/view', /"versioned": false and "audit": false/);
  });
});

describe('file.parentStates', () => {
  it('names code fields of the parent and their keys', async () => {
    const F = 'entities/claim-attachment.json';
    edit(F, (j) => (j.file.parentStates = { logisticStatus: ['wait'] }));
    await expectError(F, '/file/parentStates/logisticStatus', /is not a code field of entity "claim"/);
    edit(F, (j) => (j.file.parentStates = { logisticsStatus: ['waiting'] }));
    await expectError(F, '/file/parentStates/logisticsStatus/0', /unknown code key "waiting"/);
  });
});
