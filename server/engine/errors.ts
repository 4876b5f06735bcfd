/**
 * Every failure a client sees is an AppError: an HTTP status and a code that is also an i18n key
 * (metadata/i18n/<locale>/messages.json). The error handler translates it; nothing else
 * (stack, SQL, driver message) ever leaves the server.
 */
import type { FieldErrors } from '../../codegen/runtime/validation.ts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly args: Record<string, string | number> = {},
    readonly fieldErrors?: FieldErrors,
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
export const conflict = (code: string, args: Record<string, string | number> = {}, fieldErrors?: FieldErrors): AppError => new AppError(409, code, args, fieldErrors);
