/**
 * Client-side checks of the personal-info dialog (spec 5), from the account entity's fields and
 * the named rules in metadata (email, mobile, telephone, password); the server checks the same
 * rules again (server/routes/connect.ts) and its field errors are shown in the same places.
 * Patterns are plain RegExp (no eval: the CSP forbids it, which is why ajv is not used here).
 */
import type { CompiledField, CompiledRule } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';

export interface ProfileForm {
  userId: string;
  name: string;
  email: string;
  mobile: string;
  telephone: string;
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}
export type ProfileField = keyof ProfileForm;
export interface FieldProblem {
  key: string;
  args?: Record<string, string | number>;
}
export type ProfileErrors = Partial<Record<ProfileField, FieldProblem>>;

export const PROFILE_FIELDS = ['name', 'email', 'mobile', 'telephone'] as const;

// a pragmatic e-mail shape; the server's format check is the authority
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The problem of a value under a named rule of metadata (also the reset page's password check). */
export function ruleProblem(rule: CompiledRule | undefined, value: string): FieldProblem | null {
  if (!rule || !value) return null;
  const fail = { key: rule.messageKey, args: rule.params };
  if (rule.format === 'email' && !EMAIL.test(value)) return fail;
  if (rule.pattern && !new RegExp(rule.pattern).test(value)) return fail;
  if (rule.minLength !== undefined && value.length < rule.minLength) return fail;
  if (rule.maxLength !== undefined && value.length > rule.maxLength) return fail;
  return null;
}

function fieldProblem(field: CompiledField | undefined, value: string): FieldProblem | null {
  if (!field) return null;
  if (!value.trim()) return field.required ? { key: 'validation.required' } : null;
  if (field.maxLength !== undefined && value.length > field.maxLength) return { key: 'validation.maxLength', args: { max: field.maxLength } };
  for (const r of field.rules) {
    const p = ruleProblem(metadata.rules[r], value);
    if (p) return p;
  }
  return null;
}

/** `forced`: a 602 account must set a new password. */
export function validateProfile(v: ProfileForm, forced: boolean): ProfileErrors {
  const errors: ProfileErrors = {};
  const fields = metadata.entities.account?.fields ?? {};
  for (const f of PROFILE_FIELDS) {
    const p = fieldProblem(fields[f], v[f] ?? '');
    if (p) errors[f] = p;
  }
  const wantsPassword = forced || !!(v.oldPassword || v.newPassword || v.confirmPassword);
  if (wantsPassword) {
    if (!v.oldPassword) errors.oldPassword = { key: 'validation.required' };
    if (!v.newPassword) errors.newPassword = { key: 'validation.required' };
    else {
      const p = ruleProblem(metadata.rules.password, v.newPassword);
      if (p) errors.newPassword = p;
    }
    if (!v.confirmPassword) errors.confirmPassword = { key: 'validation.required' };
    else if (v.newPassword && v.newPassword !== v.confirmPassword) errors.confirmPassword = { key: 'error.passwordMismatch' };
  }
  return errors;
}

/** The body of POST /supplierApi/accountInfo/update: profile fields always, passwords only when changed. */
export function profilePayload(v: ProfileForm): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const f of PROFILE_FIELDS) body[f] = v[f].trim() === '' && f !== 'name' ? null : v[f].trim();
  if (v.oldPassword || v.newPassword || v.confirmPassword) {
    body.oldPassword = v.oldPassword;
    body.newPassword = v.newPassword;
    body.confirmPassword = v.confirmPassword;
  }
  return body;
}
