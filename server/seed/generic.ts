/**
 * Demo data from metadata alone, for every entity without a hand-written seeder (seed/index.ts
 * HAND_SEEDED): a new plain entity gets plausible rows with no code. The hand-written modules stay
 * where business data must agree across entities (orders, stock, settlements, ...).
 *
 * What the generator reads, per field:
 *  - type, maxLength, the numeric range (minimum/maximum, precision/scale) and the rules' limits;
 *  - rules with examples (mobile, telephone, ...): an example with its digits varied; `format:
 *    email`: an address at example.com;
 *  - code tables: a code of the table; ref fields: a row of the referenced entity (the parent of a
 *    `scope.parent` entity first, whose supplier and warehouse the row then takes over);
 *  - scope: supplier fields get the demo suppliers' codes (S001, S002), the warehouse field the demo
 *    warehouses (PDC01, PDC02), in the proportions the hand-written modules use;
 *  - sessionDefault: the supplier's name, the user who would have created the row, ...;
 *  - autoNumber: prefix + yyyyMMdd + digits, and the number series continue after them;
 *  - unique fields and unique indexes: no two rows alike;
 *  - the state machine: every status reachable from the status field's default through the
 *    actions appears; a row in a status carries what the actions on the way there set (`set`:
 *    $now, $user, codes) and wrote from their input (a rejection's reason), and nothing that only
 *    other actions write;
 *  - the entity's optional `seed` hint in metadata: rows at scale 1 (default 24), value pools,
 *    ranges (numbers; dates in days relative to the demo's today).
 * Every row is checked against the same JSON Schema the API validates with (without the clock's
 * notBeforeToday: the demo has its own today) and meets the entity's compare rules between fields, so a value the generator cannot make valid stops the
 * seed with the entity, field and rule, and the hint that would fix it.
 * Deterministic: one random stream per entity from the seed, dates from the seed's base date.
 */
import { TODAY, type CompiledAction, type CompiledEntity, type CompiledField, type CompiledMetadata } from '../../codegen/runtime/model.ts';
import { compareErrors } from '../../codegen/runtime/compare-rules.ts';
import { fieldSchema, numericRange, withoutClock, type JsonSchema } from '../../codegen/runtime/field-schema.ts';
import { SchemaValidator } from '../../codegen/runtime/validation.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Rng } from './writer.ts';
import { personName } from './catalog.ts';
import { DEMO_ACCOUNTS } from './base.ts';
import { COMBOS, COMBO_WEIGHTS, S1, S2, STAFF, W1, W2, quota, supplierName, supplierUser, weighted, type SeedContext } from './context.ts';

/** Rows of an entity at scale 1 unless its metadata says otherwise (`seed.rows`). */
export const DEFAULT_ROWS = 24;

type Row = Record<string, unknown>;
interface Scope {
  supplier: string | null;
  warehouse: string | null;
}
/** A row another entity may point at, with the scope a child takes over. */
interface Target {
  id: number;
  scope: Scope;
}

const SUPPLIER_ADMIN = DEMO_ACCOUNTS.find((a) => a.accountType === 'supplierAdmin')!;
const SENTENCES = [
  '按计划执行，无异常。',
  '请于本周内完成确认。',
  '已与仓库核对数量。',
  '包装完好，按时到货。',
  '详见附件说明。',
  '客户要求加急处理。',
  '数量与单据一致。',
  '需要补充资料后再次提交。',
];
const LATIN_NAMES = ['zhang.wei', 'li.na', 'wang.fang', 'liu.qiang', 'chen.jing', 'zhao.lei', 'sun.li', 'zhou.min', 'wu.tao', 'xu.yan'];

/** The entities this module fills: no hand-written seeder, not files (they need stored files), rows not declared 0. */
export function genericEntities(meta: CompiledMetadata, handSeeded: readonly string[]): CompiledEntity[] {
  // a view entity (metadata `view`) is computed from its source's rows: nothing to write
  const mine = Object.values(meta.entities).filter((e) => !handSeeded.includes(e.name) && !e.file && !e.view && e.seed?.rows !== 0);
  // parents first: a ref needs the rows it points at
  const out: CompiledEntity[] = [];
  const visiting = new Set<string>();
  const visit = (e: CompiledEntity) => {
    if (out.includes(e) || visiting.has(e.name)) return;
    visiting.add(e.name);
    for (const f of Object.values(e.fields)) {
      const target = f.ref ? mine.find((x) => x.name === f.ref) : undefined;
      if (target && target !== e) visit(target);
    }
    out.push(e);
  };
  mine.forEach(visit);
  return out;
}

/** Fills the given entities (in the order given: parents first). */
export async function seedGeneric(ctx: SeedContext, entities: readonly CompiledEntity[]): Promise<void> {
  const validator = new SchemaValidator(ctx.meta);
  for (const e of entities) await new EntityGenerator(ctx, e, validator).run();
}

/** One state machine: a code field some actions move, its reachable states and the way to each. */
interface Machine {
  field: string;
  states: string[];
  pathTo: Map<string, CompiledAction[]>;
}

function machinesOf(e: CompiledEntity): Machine[] {
  const fields = new Set(
    Object.values(e.actions)
      .map((a) => a.statusField)
      .filter((f): f is string => !!f && e.fields[f]?.type === 'code'),
  );
  if (e.statusField) fields.add(e.statusField);
  return [...fields].map((field) => {
    const f = e.fields[field];
    const moves = Object.values(e.actions).filter((a) => a.statusField === field && a.to && !a.internal);
    const start = f.default !== undefined ? [String(f.default)] : null;
    const pathTo = new Map<string, CompiledAction[]>();
    if (!start) return { field, states: [], pathTo }; // filled from the code table below
    // breadth first from the default: the shortest way to each state
    const queue = [...start];
    for (const s of start) pathTo.set(s, []);
    while (queue.length) {
      const s = queue.shift()!;
      for (const a of moves) {
        if (a.from && !a.from.includes(s)) continue;
        for (const to of a.to!) {
          if (pathTo.has(to)) continue;
          pathTo.set(to, [...pathTo.get(s)!, a]);
          queue.push(to);
        }
      }
    }
    return { field, states: [...pathTo.keys()], pathTo };
  });
}

class EntityGenerator {
  private readonly r: Rng;
  private readonly machines: Machine[];
  /** fields only actions write (server-owned): empty unless an action on the row's way wrote them */
  private readonly actionOwned = new Set<string>();
  private readonly uniqueSets: string[][];
  private readonly seen: Set<string>[];
  private readonly schema: JsonSchema;
  private readonly targets = new Map<string, Target[]>();
  private readonly fields: CompiledField[];

  constructor(
    private readonly ctx: SeedContext,
    private readonly e: CompiledEntity,
    private readonly validator: SchemaValidator,
  ) {
    this.r = ctx.rng(`generic:${e.name}`);
    this.machines = machinesOf(e);
    for (const m of this.machines) {
      if (m.states.length) continue;
      // no default to start from: every code of the table is a state
      for (const v of ctx.meta.codeTables[e.fields[m.field].codeTable!].values) m.pathTo.set(v.code, []);
      m.states.push(...m.pathTo.keys());
    }
    for (const a of Object.values(e.actions)) {
      for (const f of [...Object.keys(a.set), ...a.inputOrder])
        if (e.fields[f] && !e.fields[f].system && e.fields[f].readOnly && !this.isMachine(f)) this.actionOwned.add(f);
    }
    this.fields = e.fieldOrder.map((n) => e.fields[n]).filter((f) => !f.system);
    this.uniqueSets = [
      ...this.fields.filter((f) => f.unique).map((f) => [f.name]),
      ...e.indexes.filter((ix) => ix.unique && ix.fields.length > 1).map((ix) => ix.fields),
    ];
    this.seen = this.uniqueSets.map(() => new Set<string>());
    const required = this.fields.filter((f) => f.required).map((f) => f.name);
    this.schema = withoutClock({
      type: 'object',
      required,
      properties: Object.fromEntries(this.fields.map((f) => [f.name, fieldSchema(f, ctx.meta, f.required)])),
    });
  }

  private isMachine(field: string): boolean {
    return this.machines.some((m) => m.field === field);
  }

  async run(): Promise<void> {
    const e = this.e;
    for (const f of this.fields) if (f.ref) this.targets.set(f.name, await this.targetsOf(this.ctx.meta.entities[f.ref]));
    const parentField = e.scope.parent;
    if (parentField && !this.targets.get(parentField)?.length) return; // no parent rows, no children
    const n = this.ctx.count(e.seed?.rows ?? DEFAULT_ROWS);
    const statePlans = this.machines.map((m) =>
      quota(
        this.r,
        n,
        m.states.map(() => 1),
      ),
    );
    const insert = this.ctx.w.inserter(
      e.name,
      this.fields.map((f) => f.name),
    );
    await this.ctx.batched(async (tick) => {
      for (let i = 0; i < n; i++) {
        const row = this.uniqueRow(
          i,
          statePlans.map((plan, k) => this.machines[k].states[plan[i]]),
        );
        if (!row) continue;
        insert(row);
        await tick();
      }
    });
    for (const f of this.fields) if (f.autoNumber) await this.ctx.syncNumberSeries(e.name, f.name);
  }

  /** Up to 30 tries for a row whose unique fields are new and whose compare rules hold. */
  private uniqueRow(i: number, states: string[]): Row | null {
    for (let attempt = 0; attempt < 30; attempt++) {
      const row = this.row(i, states, attempt);
      if (!this.comparesHold(row)) continue;
      const keys = this.uniqueSets.map((set) => JSON.stringify(set.map((f) => row[f])));
      // a unique index does not compare NULLs: a row with a null in the set never collides
      if (keys.some((k, j) => this.uniqueSets[j].every((f) => row[f] !== null) && this.seen[j].has(k))) continue;
      keys.forEach((k, j) => this.seen[j].add(k));
      this.check(row);
      return row;
    }
    return null;
  }

  /**
   * The entity's compare rules between two fields (metadata "compare"; those against $today are
   * the clock's, like notBeforeToday): a pair drawn the wrong way round is swapped (valid from and
   * valid to); false when a rule still fails (equal values and a strict rule), and the row is drawn again.
   */
  private comparesHold(row: Row): boolean {
    const rules = (this.e.compare ?? []).filter((c) => c.other !== TODAY);
    for (const c of rules) {
      const one = { fields: this.e.fields, compare: [c] };
      if (compareErrors(one, row, 'create', '') && c.op !== '=' && c.op !== '!=') [row[c.field], row[c.other]] = [row[c.other], row[c.field]];
    }
    return !compareErrors({ fields: this.e.fields, compare: rules }, row, 'create', '');
  }

  private check(row: Row): void {
    const errors = this.validator.validate(this.schema, row);
    if (!errors) return;
    const [field, fe] = Object.entries(errors)[0];
    throw new Error(
      `seed: the generated ${this.e.name}.${field} = ${JSON.stringify(row[field])} fails ${fe.key}; ` +
        `give the entity's metadata a "seed": { "values": { "${field}": [...] } } hint with valid values`,
    );
  }

  private row(i: number, states: string[], attempt: number): Row {
    const e = this.e;
    const r = this.r;
    const row: Row = {};
    // scope first: the parent's, else a demo supplier / warehouse combination
    let scope: Scope = this.scope();
    if (e.scope.parent) {
      const parent = r.pick(this.targets.get(e.scope.parent)!);
      row[e.scope.parent] = parent.id;
      scope = { supplier: parent.scope.supplier ?? scope.supplier, warehouse: parent.scope.warehouse ?? scope.warehouse };
    }
    const onTheWay: CompiledAction[] = [];
    this.machines.forEach((m, k) => {
      row[m.field] = states[k];
      onTheWay.push(...m.pathTo.get(states[k])!);
    });
    const written = new Map<string, { action: CompiledAction; def: CompiledField }>();
    for (const a of onTheWay) for (const n of a.inputOrder) if (this.actionOwned.has(n)) written.set(n, { action: a, def: a.input[n] });
    const setByAction = new Map<string, { action: CompiledAction; value: unknown }>();
    for (const a of onTheWay) for (const [n, v] of Object.entries(a.set)) if (e.fields[n] && !this.isMachine(n)) setByAction.set(n, { action: a, value: v });

    for (const f of this.fields) {
      const n = f.name;
      if (n in row) continue;
      if (n === e.softDelete) row[n] = false;
      else if (e.scope.supplierFields.includes(n)) row[n] = scope.supplier;
      else if (n === e.scope.warehouseField) row[n] = scope.warehouse;
      else if (setByAction.has(n)) row[n] = this.actionValue(setByAction.get(n)!, scope);
      else if (written.has(n)) row[n] = this.value(written.get(n)!.def, i, scope, attempt, true);
      else if (this.actionOwned.has(n)) row[n] = null;
      // what the server fills on create (session defaults, auto numbers) is always there; other optional fields mostly
      else row[n] = f.required || f.unique || f.sessionDefault || f.autoNumber || r.chance(0.85) ? this.value(f, i, scope, attempt, f.required) : null;
    }
    return row;
  }

  private scope(): Scope {
    const e = this.e;
    const hasSupplier = e.scope.supplierFields.length > 0;
    const hasWarehouse = !!e.scope.warehouseField;
    if (hasSupplier && hasWarehouse) {
      const c = COMBOS[weighted(this.r, COMBO_WEIGHTS)];
      return { supplier: c.supplier, warehouse: c.warehouse };
    }
    return {
      supplier: hasSupplier ? (this.r.chance(0.6) ? S1 : S2) : null,
      warehouse: hasWarehouse ? (this.r.chance(0.7) ? W1 : W2) : null,
    };
  }

  /** Who would have done it: the row's supplier where a supplier may, else the staff or the administrator. */
  private actor(grantedTo: readonly string[], scope: Scope): { userId: string; name: string } {
    if (scope.supplier && grantedTo.includes('supplier')) return supplierUser(scope.supplier);
    if (!grantedTo.includes('internal') && grantedTo.includes('supplierAdmin')) return SUPPLIER_ADMIN;
    return STAFF;
  }

  private actionValue({ action, value }: { action: CompiledAction; value: unknown }, scope: Scope): unknown {
    const who = this.actor(Object.keys(action.allow), scope);
    if (value === '$now') return this.ctx.at(-this.r.int(0, 60), this.ctx.workMinute(this.r), this.r.int(0, 59));
    if (value === '$user') return who.userId;
    if (value === '$userName') return who.name;
    return value;
  }

  /** A valid value of field `f` for row `i`; a failure names the entity and the field (a seed hint out of the demo calendar). */
  private value(f: CompiledField, i: number, scope: Scope, attempt: number, required: boolean): unknown {
    try {
      return this.draw(f, i, scope, attempt, required);
    } catch (err) {
      throw new Error(`seed: entity "${this.e.name}", field "${f.name}": ${(err as Error).message.replace(/^seed: /, '')}`, { cause: err });
    }
  }

  /** A valid value of field `f` for row `i` (unique fields carry the row number). */
  private draw(f: CompiledField, i: number, scope: Scope, attempt: number, required: boolean): unknown {
    const r = this.r;
    const hint = this.e.seed?.values[f.name];
    if (hint) return r.pick(hint);
    const creator = () => this.actor(Object.keys(this.e.access.create ?? {}), scope);
    switch (f.sessionDefault) {
      case 'supplierCode':
        return scope.supplier ?? S1;
      case 'supplierName':
        return supplierName(scope.supplier ?? S1);
      case 'warehouseCode':
        return scope.warehouse ?? W1;
      case 'userId':
        return creator().userId;
      case 'userName':
        return creator().name;
      case 'now':
        return this.datetime(f);
    }
    if (f.autoNumber) return this.ctx.number(f.autoNumber.prefix, -r.int(0, 60), f.autoNumber.digits);
    switch (f.type) {
      case 'boolean':
        return r.chance(0.5);
      case 'code': {
        const values = this.ctx.meta.codeTables[f.codeTable!].values;
        return r.pick(values).code;
      }
      case 'ref': {
        const targets = this.targets.get(f.name) ?? [];
        return targets.length ? r.pick(targets).id : null;
      }
      case 'integer':
      case 'decimal':
        return this.number(f, i);
      case 'date': {
        const range =
          this.e.seed?.ranges[f.name] ?? (f.rules.some((x) => this.ctx.meta.rules[x]?.notBeforeToday) ? { min: 1, max: 60 } : { min: -90, max: 30 });
        return this.ctx.day(r.int(range.min, range.max));
      }
      case 'datetime':
        return this.datetime(f);
      case 'string':
      case 'text':
        return this.text(f, i, attempt, required);
    }
  }

  private datetime(f: CompiledField): string {
    const range = this.e.seed?.ranges[f.name] ?? { min: -90, max: 0 };
    return this.ctx.at(this.r.int(range.min, range.max), this.ctx.workMinute(this.r), this.r.int(0, 59));
  }

  /** A number inside the field's range and its rules' limits, in a plausible window (-999 to +10,000 unless the hint says otherwise). */
  private number(f: CompiledField, i: number): number {
    const meta = this.ctx.meta;
    const own = numericRange(f) ?? { min: 0, max: 9999 };
    let lo = own.min;
    let hi = own.max;
    const step = f.type === 'integer' ? 1 : 10 ** -(f.scale ?? 0);
    let multiple: number | undefined;
    let not: number | undefined;
    for (const name of f.rules) {
      const rule = meta.rules[name];
      if (!rule) continue;
      if (rule.minimum !== undefined) lo = Math.max(lo, rule.minimum);
      if (rule.maximum !== undefined) hi = Math.min(hi, rule.maximum);
      if (rule.exclusiveMinimum !== undefined) lo = Math.max(lo, rule.exclusiveMinimum + step);
      if (rule.exclusiveMaximum !== undefined) hi = Math.min(hi, rule.exclusiveMaximum - step);
      if (rule.multipleOf !== undefined) multiple = rule.multipleOf;
      const n = (rule as { not?: { const?: number } }).not?.const;
      if (n !== undefined) not = n;
    }
    const hint = this.e.seed?.ranges[f.name];
    if (hint) {
      lo = Math.max(lo, hint.min);
      hi = Math.min(hi, hint.max);
    } else {
      lo = Math.max(lo, -999);
      hi = Math.max(lo, Math.min(hi, lo + 10_000));
    }
    // a unique integer counts up through its window
    let x = f.unique && f.type === 'integer' ? lo + (i % (hi - lo + 1)) : lo + this.r.next() * (hi - lo);
    if (f.type === 'integer') x = Math.round(x);
    if (multiple) x = Math.round(x / multiple) * multiple;
    const digits = f.type === 'integer' ? 0 : Math.min(f.scale ?? 2, 6);
    x = Number(x.toFixed(digits));
    x = Math.min(hi, Math.max(lo, x));
    if (not !== undefined && x === not) x = x + step <= hi ? Number((x + step).toFixed(digits)) : Number((x - step).toFixed(digits));
    return x;
  }

  private text(f: CompiledField, i: number, attempt: number, required: boolean): string {
    const meta = this.ctx.meta;
    const r = this.r;
    const rules = f.rules.map((n) => meta.rules[n]).filter((x) => !!x);
    let max = f.maxLength ?? 200;
    let min = 0;
    for (const rule of rules) {
      if (rule.maxLength !== undefined) max = Math.min(max, rule.maxLength);
      if (rule.minLength !== undefined) min = Math.max(min, rule.minLength);
    }
    const unique = f.unique || this.uniqueSets.some((s) => s.includes(f.name));
    const suffix = unique ? String(i + 1 + attempt * 100_000) : '';
    const withExamples = rules.find((x) => x.examples?.length);
    if (withExamples) return varyDigits(r, String(r.pick(withExamples.examples!)), withExamples.pattern);
    if (rules.some((x) => x.format === 'email')) {
      const local = `${r.pick(LATIN_NAMES)}${suffix || r.int(1, 99)}`;
      return `${local}@example.com`.slice(-max);
    }
    let base: string;
    const name = f.name;
    if (f.type === 'text' || /(remark|note|reason|description|content|comment|opinion|basis)s?$/i.test(name)) base = r.pick(SENTENCES);
    // a certificate number is no person's name, even as the title: identifiers and *No / *Code / *Number fields look like codes
    else if (f.identifier || /[a-z](No|Code|Number|Id)$/.test(name)) base = codeLike(name, unique ? i + 1 : r.int(1, 9999));
    else if (name === 'name' || name === this.e.titleField || /(contact|person|user|submitter|auditor)(name)?$/i.test(name)) base = personName(r);
    else base = codeLike(name, unique ? i + 1 : r.int(1, 9999));
    if (unique && !base.includes(suffix)) base = `${base}-${suffix}`;
    return fit(base, Math.max(min, required ? 1 : 0), max, suffix);
  }

  /** Rows an entity offers as ref targets (read back from the database: every seeder has flushed). */
  private async targetsOf(target: CompiledEntity): Promise<Target[]> {
    const supplierField = target.scope.supplierFields[0];
    const cols = [
      `${quote('id')} AS id`,
      supplierField ? `${quote(target.fields[supplierField].column)} AS s` : 'NULL AS s',
      target.scope.warehouseField ? `${quote(target.fields[target.scope.warehouseField].column)} AS w` : 'NULL AS w',
    ];
    const rows = await this.ctx.w.db.all<{ id: number; s: string | null; w: string | null }>(
      `SELECT ${cols.join(', ')} FROM ${quote(target.table)} ORDER BY ${quote('id')} LIMIT 10000`,
    );
    return rows.map((x) => ({ id: Number(x.id), scope: { supplier: x.s, warehouse: x.w } }));
  }
}

/** "partsCode" -> "PC-0042": a code in the style of the portal's document codes. */
function codeLike(field: string, n: number): string {
  const initials =
    field
      .replace(/[^A-Za-z]/g, '')
      .replace(/^[a-z]/, (c) => c.toUpperCase())
      .replace(/[a-z]/g, '') || 'X';
  return `${initials.slice(0, 3)}-${String(n).padStart(4, '0')}`;
}

/** Cut to `max` characters keeping the unique suffix, and pad to `min`. */
function fit(s: string, min: number, max: number, suffix: string): string {
  let out = [...s].length > max ? (suffix && max > suffix.length ? [...s].slice(0, max - suffix.length).join('') + suffix : [...s].slice(-max).join('')) : s;
  while ([...out].length < min) out += '0';
  return out;
}

/** An example with its digits replaced at random, kept only when it still matches the rule's pattern. */
function varyDigits(r: Rng, example: string, pattern: string | undefined): string {
  for (let k = 0; k < 5; k++) {
    const v = example.replace(/[0-9]/g, (d, at: number) => (at === 0 ? d : String(r.int(0, 9))));
    if (!pattern || new RegExp(pattern, 'u').test(v)) return v;
  }
  return example;
}
