/**
 * The actions of one entity: the status field they move and its from/to keys, their inputs (fields
 * that fit the entity fields they write), the fields they set, the upload rule, their labels and
 * messages, and the button that shows them.
 */
import { ptr } from '../load.ts';
import { checkInputWithinField } from '../numeric-ranges.ts';
import type { CompiledAction, CompiledField } from '../runtime/model.ts';
import type { EntityScope } from './entities.ts';
import { compileField } from './fields.ts';
import type { RawField, RawInputSameAsField } from './raw.ts';

/** What an input named like an entity field inherits from it (sameAsField): its type and its validation, none of the field's storage or list settings. */
const INHERITED: (keyof RawField)[] = [
  'type',
  'labelKey',
  'maxLength',
  'precision',
  'scale',
  'minimum',
  'maximum',
  'codeTable',
  'ref',
  'required',
  'default',
  'rules',
  'lookup',
];

/** The definition of an action input: as written, or the entity field's of the same name (with the input's own `required` and `default`). */
function inputDefinition(s: EntityScope, action: string, name: string, raw: RawField | RawInputSameAsField): RawField | null {
  if (!('sameAsField' in raw)) return raw;
  const src = s.raw.fields[name];
  if (!src || src.private) {
    s.ctx.err(
      s.file,
      ptr('actions', action, 'input', name, 'sameAsField'),
      `input "${name}" of action "${action}" takes the definition of the field "${name}", which ${src ? 'is private' : 'the entity does not have'}`,
    );
    return null;
  }
  const { sameAsField: _same, description: _description, ...overrides } = raw;
  return { ...(Object.fromEntries(INHERITED.filter((k) => src[k] !== undefined).map((k) => [k, src[k]])) as unknown as RawField), ...overrides };
}

export function compileActions(s: EntityScope): Record<string, CompiledAction> {
  const { ctx, file, name, raw: e, hasField, isCode, grantOf, access } = s;
  const { err, codeOf, needKey } = ctx;
  const actions: Record<string, CompiledAction> = {};
  for (const [an, a] of Object.entries(e.actions ?? {})) {
    const p = ptr('actions', an);
    const sf = a.statusField ?? (a.from || a.to ? e.statusField : undefined);
    if ((a.from || a.to) && !sf) err(file, p, `action "${an}" moves a state but the entity has no statusField and the action names none`);
    const sfd = sf ? hasField(sf, `${p}/statusField`, `action "${an}"`, isCode) : null;
    const table = sfd?.codeTable;
    const from = a.from && table ? a.from.map((k, i) => codeOf(file, `${p}/from/${i}`, table, k)) : a.from;
    const toList = a.to === undefined ? undefined : Array.isArray(a.to) ? a.to : [a.to];
    const to = toList && table ? toList.map((k, i) => codeOf(file, Array.isArray(a.to) ? `${p}/to/${i}` : `${p}/to`, table, k)) : toList;
    const refusedIn = a.illegalTransitionIn && table ? a.illegalTransitionIn.map((k, i) => codeOf(file, `${p}/illegalTransitionIn/${i}`, table, k)) : undefined;
    if (a.illegalTransitionIn && !a.illegalTransitionKey)
      err(file, `${p}/illegalTransitionIn`, `action "${an}" names states for its illegalTransitionKey but has none`);
    refusedIn?.forEach((c, i) => {
      if (from?.includes(c))
        err(file, `${p}/illegalTransitionIn/${i}`, `action "${an}" runs in state "${a.illegalTransitionIn![i]}": it cannot be refused there`);
    });
    const input: Record<string, CompiledField> = {};
    for (const [inName, rawIn] of Object.entries(a.input ?? {})) {
      const inDef = inputDefinition(s, an, inName, rawIn);
      if (!inDef) continue;
      input[inName] = compileField(s.env, file, ['actions', an, 'input'], name, inName, inDef, [`field.${name}.${inName}`, `field.common.${inName}`]);
      const target = e.fields[inName];
      if (target) checkInputWithinField(file, ptr('actions', an, 'input', inName), inDef, target, { input: inName, action: an }, err);
    }
    if (to && to.length > 1 && !input.target) {
      input.target = {
        name: 'target',
        column: 'target',
        type: 'code',
        codeTable: table,
        labelKey: ctx.labelOf(file, `${p}/to`, `choice of action "${an}"`, undefined, `field.${name}.${an}Target`, 'field.common.target'),
        required: true,
        unique: false,
        readOnly: false,
        createOnly: false,
        private: false,
        rules: [],
        filter: [],
        sort: false,
        search: false,
        system: false,
      };
    }
    const set: Record<string, unknown> = {};
    for (const [sk, sv] of Object.entries(a.set ?? {})) {
      const fd = hasField(sk, `${p}/set/${sk}`, `action "${an}" set`);
      if (sv === '$user' && fd && fd.holds !== 'userId')
        err(
          file,
          `${p}/set/${sk}`,
          `action "${an}" sets "${sk}" to "$user" (a user ID): the field needs "holds": "userId" so that screens show the person's name`,
        );
      set[sk] = fd?.type === 'code' && fd.codeTable && typeof sv === 'string' && !sv.startsWith('$') ? codeOf(file, `${p}/set/${sk}`, fd.codeTable, sv) : sv;
    }
    if (a.collection && !a.handler) err(file, `${p}/collection`, `a collection action needs a handler (it has no record to change)`);
    const button = a.button ?? an;
    actions[an] = {
      name: an,
      labelKey: ctx.labelOf(file, p, `action "${an}"`, a.labelKey, `action.${name}.${an}`, `action.common.${an}`),
      ...(sf ? { statusField: sf } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      allow: grantOf(a.allow, `${p}/allow`),
      button,
      input,
      inputOrder: Object.keys(input),
      set,
      handler: !!a.handler,
      bulk: !!a.bulk,
      collection: !!a.collection,
      confirm: !!a.confirm,
      successKey: a.successKey ?? 'message.actionSuccess',
      illegalTransitionKey: a.illegalTransitionKey ?? 'error.illegalTransition',
      ...(refusedIn ? { illegalTransitionIn: refusedIn } : {}),
      internal: !!a.internal,
      ...(a.upload ? { upload: { rule: a.upload.rule, template: !!a.upload.template } } : {}),
    };
    if (a.upload) {
      const r = s.env.rules[a.upload.rule];
      if (!r)
        ctx.unknown(
          file,
          `${p}/upload/rule`,
          'rule',
          a.upload.rule,
          Object.keys(s.env.rules).filter((x) => s.env.rules[x].fileTypes),
        );
      else if (!r.fileTypes) err(file, `${p}/upload/rule`, `rule "${a.upload.rule}" is not a file rule (it has no fileTypes)`);
    }
    if (a.illegalTransitionKey) needKey(file, `${p}/illegalTransitionKey`, a.illegalTransitionKey, `action "${an}"`);
    if (a.successKey) needKey(file, `${p}/successKey`, a.successKey, `action "${an}"`);
    if (!access.buttons[button] && !ctx.hasKey(`button.${button}`) && !ctx.hasKey(actions[an].labelKey))
      err(file, `${p}/button`, `button "${button}" has no label (expected "button.${button}" in both languages)`);
  }
  return actions;
}
