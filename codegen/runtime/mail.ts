/**
 * Notification e-mails: the contract between the templates in metadata/mail.json and the server
 * code that queues and sends them (server/mail/). Codegen checks the templates against it; the
 * sender renders them with `renderMail`. A template is a subject, a plain text and optionally a
 * simple HTML body per language, with `{{placeholder}}`s and nothing else (no logic).
 */
import type { Locale } from './model.ts';

/** The mails server code queues (queueMail); metadata/mail.json must define each, and only these. */
export const MAIL_TEMPLATES = ['registration', 'passwordReset', 'unlock', 'passwordExpiry', 'lockoutNotice'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/**
 * Placeholders the sender fills in for every mail, from the account and the configuration: a
 * template uses them without declaring them (its `vars` are what the code that queues it passes).
 */
export const STANDARD_MAIL_VARS = ['userId', 'name', 'loginLink', 'forgotPasswordLink', 'passwordRules'] as const;

export interface MailContent {
  subject: string;
  text: string;
  /** optional simple HTML; placeholder values are HTML-escaped in it */
  html?: string;
}

export interface CompiledMailTemplate {
  description: string;
  /** the placeholders the code that queues this mail must pass (besides the standard ones) */
  vars: string[];
  content: Record<Locale, MailContent>;
}
export type CompiledMail = Record<MailTemplate, CompiledMailTemplate>;

export const isMailTemplate = (v: unknown): v is MailTemplate => typeof v === 'string' && (MAIL_TEMPLATES as readonly string[]).includes(v);

/** One piece of a template: literal text, or a placeholder. */
export type TemplatePart = { text: string } | { name: string };

/**
 * Splits a template into literal text and `{{name}}` placeholders (spaces inside the braces are
 * allowed). A `{{` without its `}}`, or a name that is not an identifier, is an error: the checker
 * reports it, the renderer never meets it.
 */
export function parseTemplate(source: string): { parts: TemplatePart[]; error?: string } {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    const strayClose = source.indexOf('}}', at);
    if (strayClose >= 0 && (open < 0 || strayClose < open)) return { parts, error: `"}}" without "{{" at character ${strayClose}` };
    if (open < 0) {
      parts.push({ text: source.slice(at) });
      break;
    }
    if (open > at) parts.push({ text: source.slice(at, open) });
    const close = source.indexOf('}}', open + 2);
    if (close < 0) return { parts, error: `"{{" without "}}" at character ${open}` };
    const name = source.slice(open + 2, close).trim();
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) return { parts, error: `"{{${source.slice(open + 2, close)}}}" is not a placeholder (expected {{camelCaseName}})` };
    parts.push({ name });
    at = close + 2;
  }
  return { parts };
}

/** The placeholder names a template uses, in order of first use. */
export function placeholdersOf(source: string): string[] {
  return [...new Set(parseTemplate(source).parts.flatMap((p) => ('name' in p ? [p.name] : [])))];
}

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fills the placeholders; `escape` is applied to every value (HTML bodies). A missing value is an error. */
export function fillTemplate(source: string, values: Record<string, string | number>, escape: (s: string) => string = (s) => s): string {
  const { parts, error } = parseTemplate(source);
  if (error) throw new Error(`mail template: ${error}`);
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      const v = values[p.name];
      if (v === undefined || v === null) throw new Error(`mail template: no value for {{${p.name}}}`);
      return escape(String(v));
    })
    .join('');
}

/** The mail of one template in one language with these values (standard and declared placeholders). */
export function renderMail(content: MailContent, values: Record<string, string | number>): MailContent {
  return {
    // a header line: no line breaks in the subject, whatever a value holds
    subject: fillTemplate(content.subject, values).replace(/[\r\n]+/g, ' '),
    text: fillTemplate(content.text, values),
    ...(content.html !== undefined ? { html: fillTemplate(content.html, values, escapeHtml) } : {}),
  };
}
