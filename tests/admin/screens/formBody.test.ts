/**
 * Form values -> request body, and the browser's validation with the server's schema: empty
 * inputs, number coercion, update clearing, errors in react-admin's { message, args } shape.
 */
import { describe, expect, it } from 'vitest';
import { metadata, schemas } from '../../../admin/src/generated/index.ts';
import { makeValidate, toBody, validateBody } from '../../../admin/src/screens/formBody.ts';

const fee = metadata.entities.consultingFeeItem;
const feeFields = ['originalPartsCode', 'consultingFee', 'managementRate', 'effectiveDate', 'ordinarySalesPrice'].map((n) => fee.fields[n]);
const ship = metadata.entities.order.actions.ship;

describe('toBody', () => {
  it('leaves empty inputs out on create and actions, sends null for emptied optional fields on update', () => {
    const values = { originalPartsCode: 'A1', consultingFee: '', managementRate: null, effectiveDate: '2026-12-01', ordinarySalesPrice: '' };
    expect(toBody(values, feeFields, 'create')).toEqual({ originalPartsCode: 'A1', effectiveDate: '2026-12-01' });
    expect(toBody(values, feeFields, 'update')).toEqual({ originalPartsCode: 'A1', effectiveDate: '2026-12-01', ordinarySalesPrice: null });
  });
  it('turns typed numbers into numbers, keeps what is not a number as text', () => {
    expect(toBody({ consultingFee: '12.5', managementRate: 'abc' }, feeFields, 'create')).toEqual({ consultingFee: 12.5, managementRate: 'abc' });
  });
});

describe('validateBody / makeValidate', () => {
  it('answers the server schema keys per field, in react-admin shape', () => {
    const validate = makeValidate(schemas.consultingFeeItem.create, feeFields, 'create');
    const errors = validate({ originalPartsCode: ' ', consultingFee: 1.234, managementRate: 2, effectiveDate: '2026-02-30' });
    expect(errors.originalPartsCode).toEqual({ message: 'validation.required', args: {} });
    expect(errors.consultingFee.message).toBe('rule.money');
    expect(errors.managementRate.message).toBe('rule.decimal01');
    expect(errors.effectiveDate).toEqual({ message: 'validation.date', args: {} });
  });
  it('reports only fields shown in the form (the server answers for the rest)', () => {
    const errors = makeValidate(schemas.consultingFeeItem.create, feeFields.slice(0, 1), 'create')({ originalPartsCode: 'A' });
    expect(Object.keys(errors)).toEqual([]);
  });
  it('an action input: the positive-integer rule with its message key', () => {
    const fields = ship.inputOrder.map((n) => ship.input[n]);
    // one record's complete input (ship quantities are per record: required there, not in the bulk body)
    const validate = makeValidate(schemas.order.recordInputs!.ship, fields, 'action');
    expect(validate({}).shipQty.message).toBe('validation.required');
    expect(makeValidate(schemas.order.actions.ship, fields, 'action', { ids: [1, 2] })({})).toEqual({});
    expect(validate({ shipQty: 0 }).shipQty.message).toBe('rule.positiveInteger');
    expect(validate({ shipQty: 1.5 }).shipQty.message).toBe('validation.integer');
    expect(validate({ shipQty: 3 })).toEqual({});
  });
  it('an update may not empty a required field', () => {
    const body = toBody({ originalPartsCode: '' }, feeFields.slice(0, 1), 'update');
    expect(
      validateBody(schemas.consultingFeeItem.update, { ...body, version: 1 }, feeFields.slice(0, 1), 'update', { originalPartsCode: '' }).originalPartsCode
        .message,
    ).toBe('validation.required');
  });
});

describe('the compare rules of metadata in the form', () => {
  // the quality-certificate shape of tests/codegen/fixtures/supplier-certificate.json
  const cert = {
    fields: {
      validFrom: { name: 'validFrom', type: 'date', required: true },
      validTo: { name: 'validTo', type: 'date', required: true },
    },
    compare: [
      { field: 'validTo', op: '>=', other: 'validFrom', on: ['create', 'update'], messageKey: 'compare.supplierCertificate.validTo.0' },
      { field: 'validTo', op: '>=', other: '$today', on: ['create'], messageKey: 'compare.supplierCertificate.validTo.1' },
    ],
  } as unknown as typeof fee;
  const fields = [cert.fields.validFrom, cert.fields.validTo];
  const open = { type: 'object', properties: { validFrom: { type: 'string' }, validTo: { type: 'string' } } };

  it('puts the broken rule on its field, judged on the values as they would be saved', () => {
    const create = makeValidate(open, fields, 'create', {}, cert);
    expect(create({ validFrom: '2999-06-01', validTo: '2999-05-31' })).toEqual({ validTo: { message: 'compare.supplierCertificate.validTo.0', args: {} } });
    expect(create({ validFrom: '2999-06-01', validTo: '2999-06-01' })).toEqual({});
    // a date picker's Date counts as its day
    expect(create({ validFrom: '2999-06-01', validTo: new Date('2999-05-01T00:00:00Z') }).validTo?.message).toBe('compare.supplierCertificate.validTo.0');
    expect(create({ validFrom: '2000-01-01', validTo: '2000-12-31' })).toEqual({ validTo: { message: 'compare.supplierCertificate.validTo.1', args: {} } });
  });
  it('on update: the create-only rule is off, the field not shown compares with its stored value', () => {
    const update = makeValidate(open, [cert.fields.validTo], 'update', {}, cert);
    expect(update({ validFrom: '2000-06-01', validTo: '2000-12-31' })).toEqual({});
    expect(update({ validFrom: '2000-06-01', validTo: '2000-05-31' })).toEqual({ validTo: { message: 'compare.supplierCertificate.validTo.0', args: {} } });
    // an error of a field not in the form is the server's to report
    expect(makeValidate(open, [cert.fields.validFrom], 'update', {}, cert)({ validFrom: '2000-06-01', validTo: '2000-05-31' })).toEqual({});
  });
});
