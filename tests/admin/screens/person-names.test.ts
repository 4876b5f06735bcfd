/**
 * A field that holds a user ID is shown by the person's name the server sends beside it
 * (`<field>__name`, codegen/runtime/person-name.ts), in list columns and wherever `shownValue`
 * reads a record; without a name (an older answer, a handler's record) the ID is shown.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../../admin/src/generated/index.ts';
import { buildColumns } from '../../../admin/src/screens/columns.ts';
import { shownValue } from '../../../codegen/runtime/person-name.ts';

const settlement = metadata.entities.settlement;
const screen = metadata.screens.find((s) => s.name === 'initiatedList')!;
const translate = (k: string) => k;

describe('a person in a list column', () => {
  it('shows the name beside the ID, the ID when there is none; other columns are untouched', () => {
    const cols = buildColumns(settlement, screen.columns, translate, 'en-US');
    const approver = cols.find((c) => c.key === 'approver')!;
    expect(approver).toBeTruthy();
    expect(approver.text({ id: 1, approver: 'staff01', approver__name: 'Liu Qiang' })).toBe('Liu Qiang');
    expect(approver.text({ id: 1, approver: 'staff01' })).toBe('staff01');
    expect(approver.text({ id: 1, approver: null, approver__name: null })).toBe('');
    const opinion = cols.find((c) => c.key === 'opinion')!;
    expect(opinion.text({ id: 1, opinion: 'ok', opinion__name: 'not a person' })).toBe('ok');
  });

  it('shownValue reads the name only for a field that holds a user ID', () => {
    const r = { approver: 'staff01', approver__name: 'Liu Qiang', opinion: 'ok', opinion__name: 'x' };
    expect(shownValue(settlement.fields.approver, r, 'approver')).toBe('Liu Qiang');
    expect(shownValue(settlement.fields.opinion, r, 'opinion')).toBe('ok');
  });
});
