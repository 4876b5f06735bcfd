/**
 * Account administration by internal staff (metadata/entities/account.json): create an account
 * with a random initial password, lock, unlock, reset the password, disable, enable. Each runs in
 * the action's transaction together with its audit rows (the engine's transition and insert write
 * them) and the e-mail it causes (queueMail, templates in metadata/mail.json), so a failed change
 * sends nothing.
 *
 * Initial passwords (ASVS 5.0 6.4.1): random from the CSPRNG, checked against the metadata's
 * password rule, status mustChangePassword, so the first login can do nothing but change it. The
 * password goes only into the queued e-mail's variables (cleared once sent): never into an answer,
 * the audit trail (the hash is a private field, masked) or a log. Hashing is slow (scrypt), so it
 * happens in the handler's `prepare`, before the engine opens the transaction (never under the
 * write lock).
 *
 * The administrator's password reset mails no password: it sends the one-time link of the
 * self-service reset (server/auth/reset-link.ts), with which the holder sets a new password; a
 * lapsed link is replaced through "Forgot password".
 */
import { randomInt } from 'node:crypto';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { ruleFragment } from '../../codegen/runtime/field-schema.ts';
import { SchemaValidator } from '../../codegen/runtime/validation.ts';
import type { ActionContext, ActionHandler, CollectionHandler, PrepareContext } from '../engine/handler-types.ts';
import { conflict } from '../engine/errors.ts';
import { hashPassword, PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { clearLoginFailures } from '../auth/lockout.ts';
import { issueResetLink } from '../auth/reset-link.ts';
import { queueMail } from '../mail/queue.ts';
import {
  AccountStatus,
  type Account,
  type AccountDisableInput,
  type AccountEnableInput,
  type AccountLockInput,
  type AccountRegisterInput,
  type AccountResetPasswordInput,
  type AccountUnlockInput,
} from '../generated/types.ts';
import { inOrder } from './in-order.ts';

/** Without look-alikes (0/O, 1/l/I): the password is read from an e-mail and typed. 57 symbols, 12 of them: about 70 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const LENGTH = 12;

const validators = new WeakMap<CompiledMetadata, (pw: string) => boolean>();
/** Does `pw` satisfy the password rule of the metadata (the one a user's new password must meet)? */
function meetsPasswordRule(meta: CompiledMetadata, pw: string): boolean {
  let check = validators.get(meta);
  if (!check) {
    const v = new SchemaValidator(meta);
    const schema = { type: 'object', properties: { p: { type: 'string', allOf: [ruleFragment(meta.rules.password)] } } };
    check = (x: string) => !v.validate(schema, { p: x });
    validators.set(meta, check);
  }
  return check(pw);
}

/** A random initial password that meets the password rule (8-20 letters and digits, at least one of each). */
export function generatePassword(meta: CompiledMetadata): string {
  for (;;) {
    let pw = '';
    for (let i = 0; i < LENGTH; i++) pw += ALPHABET[randomInt(ALPHABET.length)];
    if (meetsPasswordRule(meta, pw)) return pw;
  }
}

interface NewPassword {
  password: string;
  hash: string;
}

/**
 * Every call's new password, made and hashed in `prepare` (before the transaction) and kept for the
 * handler under the call's input object; a transaction that PostgreSQL runs again reuses it.
 */
function passwordMaker(hashParams: ScryptParams) {
  const made = new WeakMap<object, NewPassword>();
  const make = async (meta: CompiledMetadata): Promise<NewPassword> => {
    const password = generatePassword(meta);
    return { password, hash: await hashPassword(password, hashParams) };
  };
  return {
    prepare: async (ctx: PrepareContext<object>) => void made.set(ctx.input, await make(ctx.meta)),
    /** the prepared password, or one made now (an engine that did not call prepare) */
    get: async (ctx: { input: object; meta: CompiledMetadata }): Promise<NewPassword> => {
      let p = made.get(ctx.input);
      if (!p) made.set(ctx.input, (p = await make(ctx.meta)));
      return p;
    },
  };
}

/** Administrators do not lock or disable their own account (they would lock themselves out). */
function notOwn(ctx: ActionContext<Account, unknown>, a: Account): void {
  if (a.id === ctx.principal.accountId) throw conflict('error.notOnOwnAccount');
}

/** The status an account returns to: it must still change its password if its holder never chose one. */
const reopened = (a: Account) => (a.passwordChangedAt ? AccountStatus.normal : AccountStatus.mustChangePassword);

export interface AccountHandlers {
  register: CollectionHandler<AccountRegisterInput>;
  lock: ActionHandler<Account, AccountLockInput>;
  unlock: ActionHandler<Account, AccountUnlockInput>;
  resetPassword: ActionHandler<Account, AccountResetPasswordInput>;
  disable: ActionHandler<Account, AccountDisableInput>;
  enable: ActionHandler<Account, AccountEnableInput>;
}

export function accountHandlers(hashParams: ScryptParams = PRODUCTION_PARAMS): AccountHandlers {
  const registerPassword = passwordMaker(hashParams);

  /**
   * A new account: its user ID must be free whatever its case (the login compares IDs without
   * case), its status is mustChangePassword, and the registration e-mail carries the initial password.
   */
  const register: CollectionHandler<AccountRegisterInput> = Object.assign(
    async (ctx: Parameters<CollectionHandler<AccountRegisterInput>>[0]) => {
      const { password, hash } = await registerPassword.get(ctx);
      const taken = await ctx.db.get(`SELECT 1 AS x FROM account WHERE LOWER(user_id) = LOWER(?)`, [ctx.input.userId]);
      if (taken) throw conflict('error.duplicate', {}, { userId: { key: 'validation.unique' } });
      const record = await ctx.insert('account', {
        ...ctx.input,
        status: AccountStatus.mustChangePassword,
        failedLogins: 0,
        passwordHash: hash,
        // no password chosen by its holder yet (expiry and unlock read it so)
        passwordChangedAt: null,
      });
      // the user ID and name come from the account (standard placeholders of every template)
      await queueMail(ctx.db, { template: 'registration', accountId: Number(record.id), vars: { initialPassword: password } }, new Date(ctx.now));
      return record;
    },
    { prepare: registerPassword.prepare },
  );

  /**
   * Locked by hand: the declared transition (its sessions end with it); no notice e-mail (that is
   * for lockouts by failed logins). Marked as staff's lock: a self-service password reset, which
   * lifts a lockout, leaves this one in place (only unlock lifts it).
   */
  const lock: ActionHandler<Account, AccountLockInput> = (ctx) =>
    inOrder(ctx.records, (a) => {
      notOwn(ctx, a);
      return ctx.transition(a, { lockedByStaff: true });
    });

  /** Unlocked: the failure count starts again (account and user ID), and the holder is told by e-mail. */
  const unlock: ActionHandler<Account, AccountUnlockInput> = (ctx) =>
    inOrder(ctx.records, async (a) => {
      const r = await ctx.transition(a, { status: reopened(a), failedLogins: 0, lockedByStaff: false });
      await clearLoginFailures(ctx.db, String(a.userId));
      await queueMail(ctx.db, { template: 'unlock', accountId: Number(a.id) }, new Date(ctx.now));
      return r;
    });

  /**
   * The passwordReset e-mail with a one-time link, as "Forgot password" sends it: the holder sets a
   * new password with it (which ends every session and lifts a lock); until then the current
   * password stays, as the mail says. The action itself is audited by the engine's transition.
   */
  const resetPassword: ActionHandler<Account, AccountResetPasswordInput> = (ctx) =>
    inOrder(ctx.records, async (a) => {
      const r = await ctx.transition(a);
      await issueResetLink(ctx.db, Number(a.id), new Date(ctx.now));
      return r;
    });

  const disable: ActionHandler<Account, AccountDisableInput> = (ctx) =>
    inOrder(ctx.records, (a) => {
      notOwn(ctx, a);
      return ctx.transition(a);
    });

  /** Enabled again: as after an unlock, the status says whether the password must still be changed. */
  const enable: ActionHandler<Account, AccountEnableInput> = (ctx) => inOrder(ctx.records, (a) => ctx.transition(a, { status: reopened(a), failedLogins: 0 }));

  return { register, lock, unlock, resetPassword, disable, enable };
}
