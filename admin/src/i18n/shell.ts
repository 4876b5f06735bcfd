/**
 * The admin shell's own texts (login form, header, tab bar, settings panel, dialogs) live with every
 * other text in metadata/i18n/<locale>/shell.json (keys shell.*), so translators find them in one
 * place and codegen checks both languages. Only the names of the languages stay here: each is
 * written in its own language and never translated.
 */
import type { Locale } from '../../../codegen/runtime/model.ts';

export const LOCALE_NAMES: Record<Locale, string> = { 'zh-CN': '简体中文', 'en-US': 'English' };
