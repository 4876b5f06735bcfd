/** app.json (business constants, menu groups) and access.json (account-type profiles, permission buttons). */
import { ptr } from '../load.ts';
import { PROFILES, type AppConstants, type CompiledAccess, type CompiledCodeTable } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import { isKeyOrBelow } from '../runtime/public-metadata.ts';

export function compileApp(ctx: CompileContext): AppConstants {
  const { src, err, needKey } = ctx;
  const appRaw = src.app.data as AppConstants & { $schema?: string };
  const { $schema: _s, ...appRest } = appRaw;
  const app: AppConstants = { ...appRest, constants: appRest.constants ?? {}, menuGroups: appRest.menuGroups ?? [] };
  needKey(src.app.file, '/titleKey', app.titleKey, 'app title');
  app.menuGroups.forEach((g, i) => needKey(src.app.file, ptr('menuGroups', i, 'titleKey'), g.titleKey, `menu group "${g.key}"`));
  // a prefix names every key below it: one that names none is a typo (or a key since renamed)
  (app.publicMessages ?? []).forEach((prefix, i) => {
    const keys = [...(ctx.cat.get(app.defaultLocale)?.keys() ?? [])];
    if (!keys.some((k) => isKeyOrBelow(k, prefix)))
      err(src.app.file, ptr('publicMessages', i), `public message "${prefix}" names no message of the catalogues`);
  });
  if (!app.locales.includes(app.defaultLocale)) err(src.app.file, '/defaultLocale', `"${app.defaultLocale}" is not one of locales`);
  if (app.pageSize > app.maxPageSize) err(src.app.file, '/pageSize', `pageSize ${app.pageSize} exceeds maxPageSize ${app.maxPageSize}`);
  return app;
}

export function compileAccess(ctx: CompileContext): CompiledAccess {
  const { src, err, needKey } = ctx;
  const accessRaw = src.access.data as { profiles: CompiledAccess['profiles']; buttons: CompiledAccess['buttons'] };
  const access: CompiledAccess = { profiles: {} as CompiledAccess['profiles'], buttons: {} };
  for (const p of PROFILES) {
    const raw = accessRaw.profiles[p];
    if (!raw) {
      err(src.access.file, ptr('profiles'), `profile "${p}" is missing`);
      continue;
    }
    access.profiles[p] = { accountType: raw.accountType, role: raw.role, admin: !!raw.admin, supplierScoped: !!raw.supplierScoped };
  }
  for (const [b, def] of Object.entries(accessRaw.buttons)) {
    needKey(src.access.file, ptr('buttons', b, 'labelKey'), def.labelKey, `button "${b}"`);
    access.buttons[b] = { labelKey: def.labelKey, ...(def.operation ? { operation: def.operation } : {}), ...(def.on ? { on: def.on } : {}) };
  }
  return access;
}

/** Every profile's account type is a code of the table "accountType" (after the code tables are read). */
export function checkProfileTypes(ctx: CompileContext, access: CompiledAccess, codeTables: Record<string, CompiledCodeTable>): void {
  if (!codeTables.accountType) ctx.err('metadata/codes', '', 'the code table "accountType" is required (access profiles refer to it)');
  for (const p of PROFILES) {
    const prof = access.profiles[p];
    if (prof && codeTables.accountType && !codeTables.accountType.values.some((x) => x.code === prof.accountType))
      ctx.err(ctx.src.access.file, ptr('profiles', p, 'accountType'), `account type "${prof.accountType}" is not a code of table "accountType"`);
  }
}
