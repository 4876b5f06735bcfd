/**
 * Step: the e-mail templates. The checks of metadata/mail.json beyond its meta-schema: every template the server sends is
 * there and nothing else, each in every language, and the placeholders add up: a body uses only
 * declared or standard placeholders, and every declared one appears in each language's text (a
 * reset link that only the Chinese mail carries is a broken mail). Errors name file and pointer.
 */
import { ptr } from '../load.ts';
import { LOCALES, type Locale } from '../runtime/model.ts';
import { MAIL_TEMPLATES, STANDARD_MAIL_VARS, parseTemplate, type CompiledMail, type CompiledMailTemplate, type MailContent } from '../runtime/mail.ts';
import type { CompileContext } from './context.ts';

interface RawTemplate {
  description: string;
  vars: string[];
  [locale: string]: unknown;
}

export function compileMail(ctx: CompileContext): CompiledMail {
  const { err } = ctx;
  const file = ctx.src.mail.file;
  const raw = (ctx.src.mail.data as { templates: Record<string, RawTemplate> }).templates;
  const out = {} as CompiledMail;
  const standard = new Set<string>(STANDARD_MAIL_VARS);
  for (const name of Object.keys(raw)) {
    if (!(MAIL_TEMPLATES as readonly string[]).includes(name)) ctx.unknown(file, ptr('templates', name), 'mail template', name, MAIL_TEMPLATES);
  }
  for (const name of MAIL_TEMPLATES) {
    const t = raw[name];
    if (!t) {
      err(file, ptr('templates'), `mail template "${name}" is missing (the server sends it; define it in every language)`);
      continue;
    }
    const base = ['templates', name];
    t.vars.forEach((v, i) => {
      if (standard.has(v)) err(file, ptr(...base, 'vars', i), `"${v}" is a standard placeholder the sender fills in: do not declare it`);
    });
    const declared = new Set([...t.vars, ...standard]);
    const content = {} as Record<Locale, MailContent>;
    for (const key of Object.keys(t)) {
      if (key !== 'description' && key !== 'vars' && !(LOCALES as readonly string[]).includes(key))
        ctx.unknown(file, ptr(...base, key), 'language', key, LOCALES);
    }
    for (const loc of LOCALES) {
      const c = t[loc] as MailContent | undefined;
      if (!c) {
        err(file, ptr(...base), `mail template "${name}" has no ${loc} version`);
        continue;
      }
      for (const part of ['subject', 'text', 'html'] as const) {
        const body = c[part];
        if (body === undefined) continue;
        const { parts, error } = parseTemplate(body);
        if (error) {
          err(file, ptr(...base, loc, part), error);
          continue;
        }
        for (const p of parts) {
          if ('name' in p && !declared.has(p.name))
            err(
              file,
              ptr(...base, loc, part),
              `placeholder {{${p.name}}} is not declared (add it to /templates/${name}/vars, or use a standard one: ${STANDARD_MAIL_VARS.join(', ')})`,
            );
        }
      }
      const inText = new Set(parseTemplate(c.text).parts.flatMap((p) => ('name' in p ? [p.name] : [])));
      for (const v of t.vars) {
        if (!inText.has(v)) err(file, ptr(...base, loc, 'text'), `declared placeholder {{${v}}} does not appear in the ${loc} text`);
      }
      content[loc] = { subject: c.subject, text: c.text, ...(c.html !== undefined ? { html: c.html } : {}) };
    }
    out[name] = { description: t.description, vars: [...t.vars], content } satisfies CompiledMailTemplate;
  }
  return out;
}
