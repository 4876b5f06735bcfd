/**
 * Lifecycle hooks: the place for a rule beyond one field and beyond a state change, on an
 * entity's create, update and delete ("an urgent price is at least the ordinary price", "no two
 * bookings of one slot"). An entity declares the hooks it has in metadata (`"hooks": ["validate"]`);
 * codegen emits server/generated/hooks.ts with the interface EntityHooks, which server/hooks/index.ts
 * must satisfy, so a declared hook without an implementation (or an implementation of a hook nobody
 * declared) is a compile error, as with ActionHandlers.
 *
 * The engine calls them inside the operation's transaction, in this order:
 *   validate     the record before and after the change; report field errors with `fieldError`
 *                (react-admin's shape, i18n keys); any error ends the operation with 400
 *                error.validation and nothing is written
 *   beforeWrite  may change `values` (what is about to be written); runs after validate
 *   afterWrite   the record as stored (null after a delete); may write other rows through the
 *                services; a throw rolls the whole operation back
 * Like action handlers, hooks do database work only: on PostgreSQL a transaction that loses a
 * serialization race is run again from the start, hooks included. Rows a hook reads in order to
 * decide (another booking of the slot) are read with `db.dialect.forUpdate(alias)` appended.
 */
import type { CompiledEntity } from '../../codegen/runtime/model.ts';
import type { HandlerServices } from './handler-types.ts';

export type WriteOperation = 'create' | 'update' | 'delete';

/** A field error's placeholder values (`%{min}` in the message) */
export type ErrorArgs = Record<string, string | number>;

export interface HookContext<R> extends HandlerServices {
  readonly entity: CompiledEntity;
  readonly operation: WriteOperation;
  /** the stored record before the operation; null on create */
  readonly before: R | null;
}

export interface ValidateContext<R, K extends string = string> extends HookContext<R> {
  /** the record as it will be: the stored one with the change applied (create: the given values over the defaults); null on delete */
  readonly after: R | null;
  /** reports a problem of one field; `key` is an i18n key (both languages), shown next to the field */
  fieldError(field: Extract<keyof R, string>, key: K, args?: ErrorArgs): void;
}

export interface BeforeWriteContext<R> extends HookContext<R> {
  /** the record as it will be (as in validate) */
  readonly after: R | null;
  /** what is about to be written: create, every value; update, the changed fields; delete, nothing. May be changed. */
  readonly values: Partial<R>;
}

export interface AfterWriteContext<R> extends HookContext<R> {
  /** the record as stored after the operation; null after a delete */
  readonly after: R | null;
}

export type ValidateHook<R, K extends string = string> = (ctx: ValidateContext<R, K>) => void | Promise<void>;
export type BeforeWriteHook<R> = (ctx: BeforeWriteContext<R>) => void | Promise<void>;
export type AfterWriteHook<R> = (ctx: AfterWriteContext<R>) => void | Promise<void>;
