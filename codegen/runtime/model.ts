/**
 * The compiled metadata model: what codegen produces from metadata/ after every check has passed,
 * and what the server and the admin read at run time. Metadata files speak in code *keys*
 * ("released"); the compiled model speaks in stored *codes* ("0") so nobody converts twice.
 */

import type { CompiledMail } from './mail.ts';

export type Locale = 'zh-CN' | 'en-US';
export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US'];
export type Bilingual = Record<Locale, string>;

export type Profile = 'internal' | 'dealer' | 'logistics' | 'supplier' | 'supplierAdmin';
export const PROFILES: readonly Profile[] = ['internal', 'dealer', 'logistics', 'supplier', 'supplierAdmin'];
export type Role = 'sys' | 'user' | 'admin';

export type FieldType = 'string' | 'text' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'code' | 'ref';
export type FilterOp = 'eq' | 'in' | 'contains' | 'range';
export type Operation = 'read' | 'create' | 'update' | 'delete' | 'export';
export const OPERATIONS: readonly Operation[] = ['read', 'create', 'update', 'delete', 'export'];

export interface CompiledField {
  name: string;
  /** SQL column name (snake_case) */
  column: string;
  type: FieldType;
  labelKey: string;
  maxLength?: number;
  precision?: number;
  scale?: number;
  minimum?: number;
  maximum?: number;
  codeTable?: string;
  ref?: string;
  required: boolean;
  unique: boolean;
  /** default as stored (code fields: the code) */
  default?: unknown;
  readOnly: boolean;
  createOnly: boolean;
  private: boolean;
  rules: string[];
  filter: FilterOp[];
  sort: boolean;
  search: boolean;
  /** id, version and audit columns the engine adds itself */
  system: boolean;
  /** a value users tell records apart by (declared, or an autoNumber field): lists never cut it off */
  identifier?: true;
  autoNumber?: { prefix: string; digits: number };
  /** 'userId': the value is an account's user ID; records carry the person's name beside it (person-name.ts) */
  holds?: 'userId';
  sessionDefault?: 'userId' | 'userName' | 'supplierCode' | 'supplierName' | 'warehouseCode' | 'now';
  /**
   * The value must be `field` of a record of `entity` that the caller can read and whose fields
   * scopedBy[theirs] equal this record's scopedBy keys (server check, 400 field error messageKey);
   * forms offer the values as an autocomplete.
   */
  /** when: the lookup applies only while these code fields of the record (or action input) hold one of these stored codes */
  /** fills: this record's field -> the target's field a pick fills in (form and server) */
  lookup?: {
    entity: string;
    field: string;
    scopedBy: Record<string, string>;
    messageKey: string;
    when?: Record<string, string[]>;
    fills?: Record<string, string>;
  };
}

/** Row condition of a grant: field -> allowed stored values */
export type Where = Record<string, unknown[]>;
/** profile -> null (all rows) or a row condition */
export type CompiledGrant = Partial<Record<Profile, { where: Where | null }>>;

export interface CompiledAction {
  name: string;
  labelKey: string;
  /** the code field the transition moves (absent for actions that change no state) */
  statusField?: string;
  /** stored codes the record must be in */
  from?: string[];
  /** stored codes after the action; several means the caller chooses with input "target" */
  to?: string[];
  allow: CompiledGrant;
  button: string;
  input: Record<string, CompiledField>;
  inputOrder: string[];
  /** field -> stored value, or "$now" / "$user" */
  set: Record<string, unknown>;
  handler: boolean;
  bulk: boolean;
  collection: boolean;
  confirm: boolean;
  successKey: string;
  illegalTransitionKey: string;
  /** stored codes in which illegalTransitionKey is the reason (absent: every state outside `from`); elsewhere the refusal names the status */
  illegalTransitionIn?: string[];
  /** applied by the engine only (file.onUpload): no route, no button */
  internal: boolean;
  /** the action takes one uploaded file checked against this file rule */
  upload?: { rule: string; template: boolean };
  /**
   * inputs a bulk call may give per record (`perRecord: { "<id>": { <input>: value } }`), in input
   * order; `defaults`: input -> the record field whose value pre-fills it in the dialog
   */
  perRecord?: { fields: string[]; defaults: Record<string, string> };
  /** record fields the dialog shows read-only */
  show?: string[];
  /** the supplier fields that name who may run it (a subset of scope.supplierFields; default all) */
  supplierFields?: string[];
}

/** Lifecycle hooks an entity may declare (server/engine/hook-types.ts), in the order the engine calls them. */
export const HOOKS = ['validate', 'beforeWrite', 'afterWrite'] as const;
export type HookName = (typeof HOOKS)[number];

export interface CompiledEntity {
  name: string;
  resource: string;
  table: string;
  labelKey: string;
  titleField: string;
  /** fields that together name one record in messages (default: [titleField]) */
  identifyBy?: string[];
  statusField?: string;
  versioned: boolean;
  audit: boolean;
  softDelete?: string;
  scope: { supplierFields: string[]; warehouseField?: string; parent?: string };
  claimWarehouseOnly: boolean;
  public: boolean;
  /** parentStates: parent field -> stored codes in which files may be added, replaced or deleted */
  file?: { rule: string; overwriteKey: string[]; onUpload?: { action: string; setParent: Record<string, string> }; parentStates?: Record<string, string[]> };
  /** who hears of what happens to its records (metadata "notify") */
  notify?: CompiledNotify[];
  fields: Record<string, CompiledField>;
  /** declared fields first, then the system fields */
  fieldOrder: string[];
  indexes: { name: string; fields: string[]; unique: boolean }[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  access: Partial<Record<Operation, CompiledGrant>>;
  /** field -> stored codes in which update / delete are allowed */
  editableWhen: Record<string, string[]>;
  deletableWhen: Record<string, string[]>;
  actions: Record<string, CompiledAction>;
  /**
   * A read-only entity computed from another (a database view): one row per group of `from`'s rows
   * by `groupBy` (fields of both), with aggregates (field -> COUNT(*) or SUM of a source field).
   */
  view?: { from: string; groupBy: string[]; aggregates: Record<string, { fn: 'count' | 'sum'; field?: string }> };
  /** lifecycle hooks of create/update/delete implemented in server/hooks/ (in HOOKS order) */
  hooks: HookName[];
  /** metadata "compare": cross-field rules the server and the forms check (codegen/runtime/compare-rules.ts) */
  compare?: CompiledCompare[];
  /** hints for the generic demo-data generator (server/seed/generic.ts); absent: its defaults */
  seed?: CompiledSeedHint;
}

export type CompareOp = '<' | '<=' | '>' | '>=' | '=' | '!=';
/** the `other` of a compare rule that means the server's date (UTC) */
export const TODAY = '$today';

/** One cross-field rule: `field op other` must hold on the listed writes (empty values are not compared). */
export interface CompiledCompare {
  field: string;
  op: CompareOp;
  /** a field of the same entity, or TODAY */
  other: string;
  on: ('create' | 'update')[];
  /** the message on `field` (generated into the bundles unless declared) */
  messageKey: string;
}

/**
 * The demo calendar: day offsets (relative to the demo's today) the demo-data generator can draw
 * dates from (server/seed/context.ts). A seed hint's date range must lie inside it (codegen checks).
 */
export const SEED_DAYS = { min: -800, max: 400 } as const;

/** metadata "seed" of an entity, with code keys turned into stored codes */
export interface CompiledSeedHint {
  /** rows at scale 1 (multiplied by the seed's scale); 0: the entity gets no demo rows */
  rows?: number;
  /** file entities: demo files per parent record (server/seed/demo-files.ts) */
  files?: number;
  /** field -> values to pick from (stored values) */
  values: Record<string, unknown[]>;
  /** field -> range to draw from (numbers; dates and datetimes: days relative to the demo's today) */
  ranges: Record<string, { min: number; max: number }>;
}

export interface CompiledCodeValue {
  code: string;
  key: string;
  label: Bilingual;
  /** the label is rightly the same text in both languages (ISO 9001): no Chinese needed (runtime/chinese-text.ts) */
  languageNeutral?: true;
}
export interface CompiledCodeTable {
  name: string;
  label: Bilingual;
  values: CompiledCodeValue[];
  /** group name -> stored codes */
  groups: Record<string, string[]>;
}

export interface CompiledRule {
  name: string;
  messageKey: string;
  params: Record<string, string | number>;
  appliesTo?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  maxBytes?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  maxDecimals?: number;
  format?: 'email' | 'date';
  notBeforeToday?: boolean;
  fileTypes?: string[];
  maxNameLength?: number;
  maxSizeKiB?: number;
  /** values that pass the rule (required with a pattern): the demo-data generator varies them, the reference shows them */
  examples?: (string | number)[];
}

export interface CompiledColumn {
  field: string;
  labelKey: string;
  width?: number;
  format?: 'date' | 'datetime' | 'number' | 'money' | 'fileSize' | 'json';
}
export interface CompiledFilter {
  field: string;
  op: FilterOp;
  alwaysOn: boolean;
  labelKey: string;
}

export interface CompiledScreen {
  name: string;
  path: string;
  /** auth: a public page of the sign-in flow outside the layout (forgot / reset password), drawn by `component` */
  kind: 'list' | 'edit' | 'show' | 'dashboard' | 'login' | 'error' | 'redirect' | 'custom' | 'auth';
  titleKey: string;
  /** the title an account of this profile sees instead of titleKey (screenTitleKey in screen-title.ts) */
  titleKeyFor?: Partial<Record<Profile, string>>;
  public: boolean;
  /** empty: any logged-in user */
  roles: Role[];
  hidden: boolean;
  activeMenu?: string;
  pinned: boolean;
  menu?: { group?: string; order: number; icon?: string };
  claimWarehouseOnly: boolean;
  resource?: string;
  /** stored values */
  fixedFilter: Record<string, unknown>;
  defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  columns: CompiledColumn[];
  filters: CompiledFilter[];
  requireFilter: boolean;
  buttons: string[];
  form: string[];
  editScreen?: string;
  listScreen?: string;
  tabs: { key: string; titleKey: string; filter: Record<string, unknown> }[];
  related: { resource: string; target: string; source: string; titleKey: string; columns: CompiledColumn[] }[];
  component?: string;
  /** a dashboard's work tiles (codegen/runtime/tiles.ts resolves their filters) */
  tiles?: CompiledTile[];
  /** a dashboard's charts (server/home/charts.ts aggregates them) */
  charts?: CompiledChart[];
}

/**
 * A dashboard chart: an aggregate over the rows a list screen would show the caller (its fixed
 * filter, a tab, the chart's own filter), grouped by a code field (one bar per code) or by the day
 * of a date or datetime field over the last `lastDays` days (UTC), counting rows or summing a field.
 */
export interface CompiledChart {
  key: string;
  titleKey: string;
  screen: string;
  tab?: string;
  filter: Record<string, unknown>;
  groupBy: { field: string; bucket: 'code' | 'day'; lastDays?: number };
  /** absent: count the rows */
  sum?: string;
  /** the value axis's label (and the table's value column) */
  valueLabelKey: string;
  kind: 'bar' | 'line';
  profiles: Profile[];
  /** the per-scope sums the engine keeps for it (codegen derives it when the chart's rows are a fixed condition: codegen/compile/chart-sums.ts) */
  summary?: ChartSummary;
}

/**
 * What the engine keeps for a chart whose rows are a fixed condition on stored values (the list's
 * fixed filter, the tab's, the chart's own: equalities and lists only), so that the chart reads a
 * few dozen summary rows instead of every matching row (server/home/chart-sums.ts): per warehouse,
 * per supplier the row names (and once for "every supplier") and per bucket, the count of rows and
 * the sum of the summed field, changed in the transaction of every write of the entity.
 */
export interface ChartSummary {
  /** the sums' rows are this key's: the dashboard and the chart (`dashboard/shippedPerDay`) */
  key: string;
  entity: string;
  /** the scope columns of the key: the entity's warehouse field and supplier fields */
  warehouseField?: string;
  supplierFields: string[];
  /** the rows counted: field -> the stored values it may hold (list-protocol eq / in) */
  where: Record<string, (string | number | boolean)[]>;
  /** rows with this field true are not counted (the list hides soft-deleted rows) */
  softDelete?: string;
}

/** A relative date bound of a tile's filter: today plus this many days (resolved when counted). */
export interface DaysFromToday {
  daysFromToday: number;
}

export interface CompiledTile {
  key: string;
  labelKey: string;
  /** the list screen counted and opened */
  screen: string;
  tab?: string;
  /** list-protocol filter keys (field, field_like, field_gte, field_lte) with stored values or relative dates */
  filter: Record<string, unknown>;
  /** empty: every profile that may open the screen */
  profiles: Profile[];
  severity: { warning?: number; error?: number };
}

/** One event of an entity that notifies (metadata: the entity's "notify"; server/home/notifications.ts). */
export interface CompiledNotify {
  /** "create", or an action's name */
  on: string;
  labelKey: string;
  profiles: Profile[];
  /** the screen a click opens: its path, and whether it takes the record's id (?id=) */
  screen: string;
  path: string;
  byId: boolean;
}

export interface AppConstants {
  titleKey: string;
  locales: Locale[];
  defaultLocale: Locale;
  requestTimeoutMs: number;
  messageDurationMs: number;
  pageSize: number;
  maxPageSize: number;
  maxTabs: number;
  mobileBreakpointPx: number;
  sidebarWidthPx: number;
  gridRowHeightPx?: number;
  themeColor: string;
  defaultUiSize?: string;
  settingsDefaults: { tagsView: boolean; fixedHeader: boolean; sidebarLogo: boolean; pinyinSearch?: boolean; errorLog?: boolean };
  dateFormat?: string;
  dateTimeFormat?: string;
  /** resetLinkMinutes: how long a password-reset link works (default 30) */
  password: { historyCount: number; loginMinLength: number; expiryDays: number; expiryWarnDays: number; resetLinkMinutes?: number };
  /** failed logins per user ID: free attempts, then growing delays, then the lock (metadata/schema/app.schema.json) */
  lockout: { maxFailures: number; freeAttempts: number; delaySeconds: number; maxDelaySeconds: number; resetAfterSeconds: number };
  token: { expiresInSeconds: number; refreshBeforeSeconds: number; maxSessionSeconds: number };
  upload: { sizeLimitKiB: number };
  /** two-step verification (TOTP): profiles that must enrol (optional for the others) */
  mfa?: { requiredFor: Profile[] };
  constants: Record<string, number | string>;
  menuGroups: { key: string; titleKey: string; icon?: string }[];
  /** messages the public pages' code shows, as keys or key prefixes (codegen/runtime/public-metadata.ts, splitMessages) */
  publicMessages?: string[];
}

export interface CompiledAccess {
  profiles: Record<Profile, { accountType: string; role: Role; admin: boolean; supplierScoped: boolean }>;
  /** operation: the permission the button needs; on fileChild: it acts on the record's uploaded files (the file entity whose scope.parent is the record's) */
  buttons: Record<string, { labelKey: string; operation?: Operation; on?: 'fileChild' }>;
}

/** The outbox's own entities: the message (the interface log) and its attempts (metadata/entities). */
export const OUTBOX_MESSAGE_ENTITY = 'interfaceMessage';
export const OUTBOX_ATTEMPT_ENTITY = 'interfaceAttempt';

/** One kind of message an interface carries: written for each record of a successful action. */
export interface CompiledInterfaceMessage {
  /** "<entity>.<action>" */
  type: string;
  entity: string;
  action: string;
  /** fields joined with '/' name the record for people */
  reference: string[];
  /** the record's fields the payload carries (after the action) */
  fields: string[];
  /** child rows the payload carries: payload[name] = rows of `entity` whose `parentField` is the record */
  children: { name: string; entity: string; parentField: string; fields: string[] }[];
}

export interface CompiledInterface {
  /** stored code of table interfaceCode (INTF0001) */
  code: string;
  key: string;
  /** most messages in one call: the value of app constant `batchLimitConstant` */
  batchLimit: number;
  batchLimitConstant: string;
  messages: CompiledInterfaceMessage[];
}

export interface OutboxDelivery {
  maxAttempts: number;
  backoffSeconds: number;
  maxBackoffSeconds: number;
  timeoutSeconds: number;
  answerExcerptChars: number;
}

/** metadata/interfaces.json, checked: what the outbox writes and how the dispatcher delivers. */
export interface CompiledOutbox {
  delivery: OutboxDelivery;
  /** interface code -> declaration */
  interfaces: Record<string, CompiledInterface>;
  /** "<entity>.<action>" -> [interface code, message declaration] pairs the action writes */
  emitters: Record<string, { interfaceCode: string; message: CompiledInterfaceMessage }[]>;
  /** inbound interface code -> what a machine client may post to it (server/inbound/) */
  inbound: Record<string, CompiledInbound>;
}

/** A cross-reference an inbound field must satisfy: its value names a record of `entity` by `field`. */
export interface InboundReference {
  entity: string;
  field: string;
  messageKey: string;
}

/** Child rows an inbound message carries: payload[name] rows of `entity`, upserted by parent + key. */
export interface CompiledInboundChild {
  name: string;
  entity: string;
  parentField: string;
  key: string[];
  fields: string[];
  /** field -> stored value every row takes */
  fixed: Record<string, unknown>;
}

/** One inbound interface (metadata/interfaces.json "inbound"), checked against the entities. */
export interface CompiledInbound {
  /** stored code of table interfaceCode (INTF0002) */
  code: string;
  key: string;
  /** most messages in one call: the value of app constant `batchLimitConstant` */
  batchLimit: number;
  batchLimitConstant: string;
  entity: string;
  /** fields that identify a record (a unique index covers exactly them) */
  businessKey: string[];
  /** fields a sender may set */
  fields: string[];
  /** fields a creating message must carry (the entity's required ones without default, and the declared ones) */
  required: string[];
  /** field -> payload field it copies on write */
  copy: Record<string, string>;
  /** field -> stored value a created record takes */
  fixed: Record<string, unknown>;
  /** field -> the reference its value must satisfy */
  references: Record<string, InboundReference>;
  /** what an update may change, in which states (stored codes); null: a known key is refused */
  update: { fields: string[]; when: Record<string, string[]> } | null;
  children: CompiledInboundChild[];
  /** declared actions a message may ask for ({ action, payload: the business key }) */
  actions: string[];
  /** JSON Schema of one message's payload (upsert) and of the whole request body */
  payloadSchema: Record<string, unknown>;
  requestSchema: Record<string, unknown>;
}

export interface CompiledMetadata {
  /** hash of the metadata sources, changes whenever any metadata file changes */
  hash: string;
  app: AppConstants;
  access: CompiledAccess;
  codeTables: Record<string, CompiledCodeTable>;
  rules: Record<string, CompiledRule>;
  entities: Record<string, CompiledEntity>;
  /** resource name -> entity name */
  resources: Record<string, string>;
  screens: CompiledScreen[];
  /** notification e-mail templates (server only: the admin's copy leaves them out) */
  mail: CompiledMail;
  /** the outbox of the external exchange (absent when metadata declares no interfaces.json) */
  outbox?: CompiledOutbox;
}

/**
 * The label keys of the buttons an action's dialog shows besides the action itself (the admin's
 * ActionDialog and its confirm-only form): an action whose own label reads like one of them
 * ("Cancel") would give the dialog two buttons of that name, so codegen refuses it
 * (codegen/compile/checks/action-dialog-labels.ts). Upload actions also show the file buttons.
 */
export const ACTION_DIALOG_BUTTONS = { cancel: 'ui.cancel', confirm: 'ui.confirm' } as const;
export const UPLOAD_DIALOG_BUTTONS = { chooseFile: 'ui.selectFile', template: 'ui.downloadTemplate' } as const;

export type Messages = Record<string, string>;
export type Catalogues = Record<Locale, Messages>;

/** The i18n key of a code value's label, as the bundles carry it */
export const codeLabelKey = (table: string, code: string): string => `code.${table}.${code}`;
export const codeTableLabelKey = (table: string): string => `codeTable.${table}`;
