/**
 * The rules of a new password, in one place for every way a password is set: the change in the
 * personal-info dialog (routes/connect.ts) and the self-service reset (auth/password-reset.ts).
 * The shape is the named rule `password` of metadata/rules (8-20 letters and digits, at least one
 * of each); it must differ from the current and the previous `app.password.historyCount - 1`
 * passwords (the last N); the password being replaced goes into `_password_history`.
 */
import { metadata } from '../generated/index.ts';
import { verifyPassword } from '../engine/passwords.ts';
import { validationFailed, type AppError } from '../engine/errors.ts';
import { ruleFragment } from '../../codegen/runtime/field-schema.ts';
import type { FieldErrors, SchemaValidator } from '../../codegen/runtime/validation.ts';
import type { Queryable } from '../db/types.ts';

const NEW_PASSWORD_SCHEMA = {
  type: 'object',
  properties: { newPassword: { type: 'string', allOf: [ruleFragment(metadata.rules.password)] } },
};

/** Field errors of a new password and its confirmation (required, the rule, the two alike). */
export function newPasswordErrors(validator: SchemaValidator, newPassword: string | null | undefined, confirmPassword: string | null | undefined): FieldErrors {
  const errors: FieldErrors = {};
  if (!newPassword) errors.newPassword = { key: 'validation.required' };
  else Object.assign(errors, validator.validate(NEW_PASSWORD_SCHEMA, { newPassword }) ?? {});
  if (newPassword && newPassword !== confirmPassword) errors.confirmPassword = { key: 'error.passwordMismatch' };
  return errors;
}

/** The account as far as its password history goes. */
export interface PasswordHolder {
  id: number;
  passwordHash: string | null;
  passwordChangedAt: string | null;
}

/** Whether `password` is the current one or one of the last passwords before it (slow: one hash check each). */
export async function reusesRecentPassword(db: Queryable, acc: PasswordHolder, password: string): Promise<boolean> {
  const n = metadata.app.password.historyCount;
  const older = await db.all<{ hash: string }>(`SELECT hash FROM _password_history WHERE account_id = ? ORDER BY changed_at DESC, id DESC LIMIT ?`, [
    acc.id,
    n,
  ]);
  const previous = [acc.passwordHash, ...older.map((r) => r.hash)].filter((h): h is string => !!h).slice(0, n);
  for (const h of previous) if (await verifyPassword(password, h)) return true;
  return false;
}

export const passwordReused = (): AppError =>
  validationFailed({ newPassword: { key: 'error.passwordReused', args: { count: metadata.app.password.historyCount } } });

/** Keeps the password being replaced in the history (inside the change's transaction). */
export async function keepInHistory(tx: Queryable, acc: PasswordHolder, now: string): Promise<void> {
  if (acc.passwordHash)
    await tx.run(`INSERT INTO _password_history (account_id, hash, changed_at) VALUES (?, ?, ?)`, [acc.id, acc.passwordHash, acc.passwordChangedAt ?? now]);
}
