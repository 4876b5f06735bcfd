/**
 * The contract between the generic engine and hand-written business logic (server/handlers/).
 * Codegen emits server/generated/handlers.ts listing one handler per action marked "handler": true.
 * Handlers are asynchronous and run inside the action's transaction, on `db` (the transaction's
 * handle). The records they get were read with a row lock (PostgreSQL) or under the write lock
 * (SQLite), so a check on them and the write that follows can never interleave with another
 * request's (no over-shipping). Other rows a handler reads to change them must be read with
 * `db.dialect.forUpdate(alias)` appended for the same reason. Handlers do database work only: on
 * PostgreSQL a transaction that loses a serialization race is run again from the start.
 */
import type { CompiledAction, CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { FieldError } from '../../codegen/runtime/validation.ts';
import type { Queryable } from '../db/types.ts';
import type { Principal } from './principal.ts';
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import type { WriteOperation } from './hook-types.ts';

export interface FileResult {
  fileName: string;
  contentType: string;
  body: Buffer;
}
export interface UploadedFile {
  fileName: string;
  data: Buffer;
}

export interface HandlerServices {
  /** the action's transaction */
  readonly db: Queryable;
  readonly meta: CompiledMetadata;
  readonly principal: Principal;
  /** ISO timestamp of this operation */
  readonly now: string;
  /** throws an AppError: the transaction rolls back and the client gets the translated code */
  fail(status: number, code: string, args?: Record<string, string | number>): never;
  /** inserts a row of any entity (defaults, audit columns and the audit trail included); returns the record */
  insert(entity: string, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** updates a row of any entity by id (version + 1, audit trail); returns the record */
  update(entity: string, id: number, patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** next value of a named number series, kept in the database */
  nextNumber(series: string): Promise<number>;
  /**
   * The field errors the entity's lookups (lookups.ts) and validate hook (hook-types.ts) find for a write that `insert` or
   * `update` is about to make (they run no hooks themselves), or null: handlers that write records
   * the way create and update do (an import) keep the same rules. `values`: the given values
   * (create) or the change (update), applied over `before`.
   */
  validateRecord(
    entity: string,
    operation: WriteOperation,
    before: Record<string, unknown> | null,
    values: Record<string, unknown>,
  ): Promise<FieldErrors | null>;
}

/** One record a handler's check refused (see ActionContext.failRecords). */
export interface RecordFault<R> {
  record: R;
  /** the input at fault: its cell in the dialog shows `error` */
  field?: string;
  error?: FieldError;
  /** written after the record's name in the message, e.g. the quantity still open */
  note?: string | number;
}

export interface ActionContext<R, I, RI = I> extends HandlerServices {
  readonly entity: CompiledEntity;
  readonly action: CompiledAction;
  /** the records the action applies to, loaded within the caller's scope, in the order of the ids */
  readonly records: R[];
  /** the body as sent; an action with per-record inputs reads them with inputOf */
  readonly input: I;
  readonly file?: UploadedFile;
  /** the complete, validated input of one record: the shared values with its perRecord entry over them */
  inputOf(record: R): RI;
  /** the record's name in messages: its identifyBy fields (default: titleField) joined with '/' */
  labelOf(record: R): string;
  /**
   * Refuses the whole action (nothing is written) naming every record at fault: args.items is
   * "<name> (<note>), ..." and each fault with a field marks that record's input (field errors
   * `perRecord.<id>.<field>`, or `<field>` when the call named one record).
   */
  failRecords(status: number, code: string, faults: RecordFault<R>[]): never;
  /**
   * The declared transition for one record: status to the action's `to` (or input.target),
   * input fields named like entity fields (the record's own input), the action's `set`, plus `patch`.
   */
  transition(record: R, patch?: Record<string, unknown>): Promise<R>;
}

export interface CollectionContext<I> extends HandlerServices {
  readonly entity: CompiledEntity;
  readonly action: CompiledAction;
  readonly input: I;
  readonly file?: UploadedFile;
}

export interface ActionOutcome<R> {
  records: R[];
  /** produced after the transaction commits (e.g. a PDF) and sent instead of the records */
  file?: () => Promise<FileResult>;
}

export type ActionHandler<R, I, RI = I> = (ctx: ActionContext<R, I, RI>) => Promise<R[] | ActionOutcome<R>>;
/** What a handler's database-free first step gets (see CollectionHandler.prepare). */
export interface PrepareContext<I> {
  readonly meta: CompiledMetadata;
  readonly principal: Principal;
  readonly entity: CompiledEntity;
  readonly action: CompiledAction;
  readonly input: I;
  readonly file?: UploadedFile;
}

/**
 * A collection action's handler. `prepare`, when present, is run by the engine BEFORE it opens the
 * transaction: database-free work such as reading and validating an uploaded workbook, so that it
 * never holds the write lock and runs once even when PostgreSQL runs the transaction again.
 */
export type CollectionHandler<I> = ((ctx: CollectionContext<I>) => Promise<unknown>) & { prepare?(ctx: PrepareContext<I>): void | Promise<void> };
