/**
 * The shapes of metadata files as written (after the meta-schema accepted them): code keys, not
 * stored codes; optional parts not yet defaulted. The compile steps turn them into the model of
 * codegen/runtime/model.ts.
 */
import type { CompareOp, CompiledColumn, CompiledField, CompiledScreen, FieldType, HookName, FilterOp, Operation, Profile, Role } from '../runtime/model.ts';
import type { RawSeedHint } from '../seed-hints.ts';

export interface RawField {
  type: FieldType;
  labelKey?: string;
  maxLength?: number;
  precision?: number;
  scale?: number;
  minimum?: number;
  maximum?: number;
  codeTable?: string;
  ref?: string;
  required?: boolean;
  unique?: boolean;
  default?: unknown;
  readOnly?: boolean;
  createOnly?: boolean;
  private?: boolean;
  rules?: string[];
  index?: boolean;
  filter?: FilterOp[];
  sort?: boolean;
  search?: boolean;
  identifier?: boolean;
  holds?: 'userId';
  autoNumber?: { prefix: string; digits: number };
  sessionDefault?: CompiledField['sessionDefault'];
  lookup?: {
    entity: string;
    field: string;
    scopedBy?: Record<string, string>;
    messageKey?: string;
    when?: Record<string, string[]>;
    fills?: Record<string, string>;
  };
}
export interface RawAction {
  labelKey?: string;
  statusField?: string;
  from?: string[];
  to?: string | string[];
  allow: RawGrant;
  button?: string;
  input?: Record<string, RawField | RawInputSameAsField>;
  set?: Record<string, unknown>;
  handler?: boolean;
  bulk?: boolean;
  collection?: boolean;
  confirm?: boolean;
  successKey?: string;
  illegalTransitionKey?: string;
  illegalTransitionIn?: string[];
  internal?: boolean;
  upload?: { rule: string; template?: boolean };
}
/** an action input that takes the definition of the entity field of its name (one source for both); `required` and `default` may differ */
export interface RawInputSameAsField {
  sameAsField: true;
  required?: boolean;
  default?: unknown;
  description?: string;
}
export type RawGrant = Partial<Record<Profile, true | { where?: Record<string, unknown[]> }>>;
export interface RawEntity {
  name: string;
  resource: string;
  table?: string;
  labelKey?: string;
  titleField?: string;
  statusField?: string;
  versioned?: boolean;
  audit?: boolean;
  softDelete?: string;
  scope?: { supplierFields?: string[]; warehouseField?: string; parent?: string };
  claimWarehouseOnly?: boolean;
  public?: boolean;
  file?: { rule: string; overwriteKey?: string[]; onUpload?: { action: string; setParent?: Record<string, string> } };
  fields: Record<string, RawField>;
  indexes?: { fields: string[]; unique?: boolean }[];
  defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  access: Partial<Record<Operation, RawGrant>>;
  editableWhen?: Record<string, string[]>;
  deletableWhen?: Record<string, string[]>;
  compare?: { field: string; op: CompareOp; other: string; on?: ('create' | 'update')[]; messageKey?: string }[];
  actions?: Record<string, RawAction>;
  hooks?: HookName[];
  screens?: RawScreen[];
  seed?: RawSeedHint;
}
export type RawColumn = string | { field: string; labelKey?: string; width?: number; format?: CompiledColumn['format'] };
export interface RawScreen {
  name: string;
  path: string;
  kind: CompiledScreen['kind'];
  titleKey: string;
  titleKeyFor?: Record<string, string>;
  public?: boolean;
  roles?: Role[];
  hidden?: boolean;
  activeMenu?: string;
  pinned?: boolean;
  menu?: { group?: string; order: number; icon?: string };
  claimWarehouseOnly?: boolean;
  resource?: string;
  fixedFilter?: Record<string, unknown>;
  defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  columns?: RawColumn[];
  filters?: (string | { field: string; op?: FilterOp; alwaysOn?: boolean })[];
  requireFilter?: boolean;
  buttons?: string[];
  form?: string[];
  editScreen?: string;
  listScreen?: string;
  tabs?: { key: string; titleKey: string; filter: Record<string, unknown> }[];
  related?: { resource: string; target: string; source?: string; titleKey?: string; columns: RawColumn[] }[];
  component?: string;
  tiles?: RawTile[];
  charts?: RawChart[];
}
export interface RawChart {
  key: string;
  titleKey: string;
  screen: string;
  tab?: string;
  filter?: Record<string, unknown>;
  groupBy: { field: string; lastDays?: number };
  sum?: string;
  valueLabelKey: string;
  kind?: 'bar' | 'line';
  profiles?: Profile[];
}
export interface RawTile {
  key: string;
  labelKey: string;
  screen: string;
  tab?: string;
  filter?: Record<string, unknown>;
  profiles?: Profile[];
  severity?: { warning?: number; error?: number };
}
