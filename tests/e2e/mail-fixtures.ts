/**
 * Accounts of the browser suite's mail flows (forgot password), added by serve.ts beside the demo
 * data, so that resetting their passwords leaves the demo accounts to the other specs: one in
 * Chinese, one in English and locked after failed logins (status 601), both with an address.
 */
import type { Db } from '../../server/db/types.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { hashPassword, type ScryptParams } from '../../server/engine/passwords.ts';
import { RowWriter } from '../../server/seed/writer.ts';

export const MAIL_ACCOUNTS = {
  zh: { userId: 'mailzh01', name: '孙丽', language: 'zh-CN', status: '0', failedLogins: 0 },
  en: { userId: 'mailen01', name: 'Emma Stone', language: 'en-US', status: '601', failedLogins: 5 },
} as const;
export const MAIL_ACCOUNT_PASSWORD = 'mail2026A';

export async function addMailAccounts(db: Db, meta: CompiledMetadata, hashParams: ScryptParams): Promise<void> {
  const hash = await hashPassword(MAIL_ACCOUNT_PASSWORD, hashParams);
  const now = new Date().toISOString();
  await RowWriter.write(db, meta, (w) => {
    for (const a of Object.values(MAIL_ACCOUNTS)) {
      w.insert('account', {
        ...a,
        accountType: '3',
        departmentId: 'S001',
        departmentName: '华东汽车零部件有限公司',
        passwordHash: hash,
        passwordChangedAt: now,
        email: `${a.userId}@example.com`,
      });
    }
  });
}
