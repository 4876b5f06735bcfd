/**
 * One queued mail made ready to send: the account's template in the account's language, the
 * standard placeholders (user ID, name, the portal's links, the password rules as the UI words
 * them) filled in beside the ones the queueing code passed.
 */
import { metadata } from '../generated/index.ts';
import { translate, isLocale } from '../engine/i18n.ts';
import { renderMail, type MailContent, type MailTemplate } from '../../codegen/runtime/mail.ts';
import type { Locale } from '../../codegen/runtime/model.ts';
import { absoluteLink, isLinkVar, type PortalLinks } from './links.ts';

export interface MailRecipient {
  userId: string;
  name: string;
  email: string | null;
  /** the account's language (code table `language`: the locale itself) */
  language: string | null;
}

export const localeOf = (r: Pick<MailRecipient, 'language'>): Locale => (isLocale(r.language) ? r.language : metadata.app.defaultLocale);

export function composeMail(
  template: MailTemplate,
  recipient: MailRecipient,
  vars: Record<string, string | number>,
  links: PortalLinks,
): MailContent & { locale: Locale } {
  const locale = localeOf(recipient);
  const rule = metadata.rules.password;
  // portal paths in link placeholders become addresses under the configured base
  const given = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, isLinkVar(k) && typeof v === 'string' ? absoluteLink(links.base, v) : v]));
  const values = {
    ...given,
    userId: recipient.userId,
    name: recipient.name,
    loginLink: links.login,
    forgotPasswordLink: links.forgotPassword,
    passwordRules: translate(locale, rule.messageKey, rule.params),
  };
  return { locale, ...renderMail(metadata.mail[template].content[locale], values) };
}
