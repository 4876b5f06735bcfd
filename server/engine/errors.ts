/**
 * Every failure a client sees is an AppError: an HTTP status and a code that is also an i18n key
 * (metadata/i18n/<locale>/messages.json). The error handler translates it; nothing else
 * (stack, SQL, driver message) ever leaves the server.
 */
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import type { CompiledRule, Locale } from '../../codegen/runtime/model.ts';

/**
 * A placeholder value of a message. Besides plain values: an argument whose name ends in `Label`
 * holds an i18n key and is shown translated (a status as its code label, an action by its name);
 * a function composes its text in the caller's language (a list of row errors of an import).
 */
export type MessageArg = string | number | ((locale: Locale) => string);
export type MessageArgs = Record<string, MessageArg>;

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly args: MessageArgs = {},
    readonly fieldErrors?: FieldErrors,
    /** the message to show when it says more than the code's own (the code stays what clients test) */
    readonly messageKey?: string,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const badRequest = (code = 'error.badRequest', args: Record<string, string | number> = {}): AppError => new AppError(400, code, args);
export const validationFailed = (errors: FieldErrors): AppError => new AppError(400, 'error.validation', {}, errors);
export const unauthorized = (code = 'error.unauthorized'): AppError => new AppError(401, code);
export const forbidden = (code = 'error.forbidden', args: Record<string, string | number> = {}): AppError => new AppError(403, code, args);
export const notFound = (code = 'error.notFound'): AppError => new AppError(404, code);
export const conflict = (code: string, args: MessageArgs = {}, fieldErrors?: FieldErrors, messageKey?: string): AppError =>
  new AppError(409, code, args, fieldErrors, messageKey);

/** A file refused by its upload rule names what the rule allows (the types, the name's length), not only that it is refused. */
export const fileTypeRefused = (rule: CompiledRule | undefined): AppError => badRequest('error.fileType', { types: String(rule?.params.types ?? '') });
export const fileNameTooLong = (rule: CompiledRule): AppError => badRequest('error.fileNameTooLong', { max: rule.maxNameLength ?? 0 });
