/**
 * The e-mail templates' checks (codegen/compile/mail.ts) on broken copies of the real metadata: each
 * mistake is refused with the file and the JSON pointer; the real templates compile into the
 * server's model (not the admin's), and render as the sender renders them.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { MAIL_TEMPLATES, parseTemplate, renderMail } from '../../codegen/runtime/mail.ts';

const copy = useMetadataCopy('portal-mail-');

describe('mail.json checks', () => {
  it('the real templates compile: every template, both languages, server side only', async () => {
    const r = await copy.run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    expect(Object.keys(r.model!.mail).sort()).toEqual([...MAIL_TEMPLATES].sort());
    for (const t of MAIL_TEMPLATES) expect(Object.keys(r.model!.mail[t].content).sort()).toEqual(['en-US', 'zh-CN']);
    expect(r.files!.get('server/generated/metadata.json')).toContain('"passwordReset"');
    expect(r.files!.get('admin/src/generated/metadata.json')).not.toContain('"mail"');
  });

  it('an unknown template name', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.registraton = j.templates.registration;
    });
    await copy.expectError('mail.json', '/templates/registraton', /unknown mail template "registraton"/);
  });

  it('a missing template', async () => {
    copy.edit('mail.json', (j) => {
      delete j.templates.unlock;
    });
    await copy.expectError('mail.json', '/templates', /mail template "unlock" is missing/);
  });

  it('a template without one of the languages', async () => {
    copy.edit('mail.json', (j) => {
      delete j.templates.passwordReset['en-US'];
    });
    await copy.expectError('mail.json', '/templates/passwordReset', /has no en-US version/);
  });

  it('an unknown language', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.unlock['fr-FR'] = j.templates.unlock['en-US'];
    });
    await copy.expectError('mail.json', '/templates/unlock/fr-FR', /unknown language "fr-FR"/);
  });

  it('a placeholder the template does not declare', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.unlock['zh-CN'].text += '\n临时密码：{{tempPassword}}';
    });
    await copy.expectError('mail.json', '/templates/unlock/zh-CN/text', /placeholder \{\{tempPassword\}\} is not declared/);
  });

  it('an undeclared placeholder in the subject or the HTML too', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.unlock['en-US'].subject = 'Unlocked {{when}}';
      j.templates.registration['zh-CN'].html += '<p>{{extra}}</p>';
    });
    await copy.expectError('mail.json', '/templates/unlock/en-US/subject', /\{\{when\}\} is not declared/);
    await copy.expectError('mail.json', '/templates/registration/zh-CN/html', /\{\{extra\}\} is not declared/);
  });

  it('a declared placeholder one language leaves out', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.passwordReset['en-US'].text = j.templates.passwordReset['en-US'].text.replace('{{resetLink}}', 'the link');
    });
    await copy.expectError('mail.json', '/templates/passwordReset/en-US/text', /declared placeholder \{\{resetLink\}\} does not appear in the en-US text/);
  });

  it('a standard placeholder declared as a var', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.unlock.vars = ['userId'];
    });
    await copy.expectError('mail.json', '/templates/unlock/vars/0', /"userId" is a standard placeholder/);
  });

  it('unbalanced or malformed braces', async () => {
    copy.edit('mail.json', (j) => {
      j.templates.unlock['zh-CN'].text = '{{name}，您好 {{userId}}';
      j.templates.unlock['en-US'].text = 'Dear {{ full name }}';
    });
    await copy.expectError('mail.json', '/templates/unlock/zh-CN/text', /"\{\{" without "\}\}"|"\}\}" without "\{\{"|is not a placeholder/);
    await copy.expectError('mail.json', '/templates/unlock/en-US/text', /is not a placeholder/);
  });

  it('the meta-schema: a template needs a description and vars; content needs a subject', async () => {
    copy.edit('mail.json', (j) => {
      delete j.templates.unlock.description;
      delete j.templates.lockoutNotice['en-US'].subject;
    });
    await copy.expectError('mail.json', '/templates/unlock', /meta-schema: must have required property 'description'/);
    await copy.expectError('mail.json', '/templates/lockoutNotice/en-US', /meta-schema: must have required property 'subject'/);
  });

  it('the file itself is required', async () => {
    rmSync(join(copy.dir, 'metadata', 'mail.json'));
    const errs = await copy.errorsOf();
    expect(errs.some((m) => m.startsWith('metadata/mail.json#: file is missing'))).toBe(true);
  });

  it('screens of kind "auth" are public and name their component', async () => {
    copy.edit('screens/reset-password.json', (j) => {
      delete j.public;
      delete j.component;
    });
    await copy.expectError('screens/reset-password.json', '/public', /of kind "auth" must be public/);
    await copy.expectError('screens/reset-password.json', '/component', /needs the component/);
  });
});

describe('rendering', () => {
  it('fills placeholders, escapes them in HTML only, keeps the subject on one line', () => {
    const m = renderMail(
      { subject: 'Hi {{name}}', text: 'Dear {{ name }}, {{link}}', html: '<p>{{name}}</p><a href="{{link}}">x</a>' },
      { name: 'A <b> & "B"\r\nBcc: x@y', link: 'https://h/p?a=1&b=2' },
    );
    expect(m.subject).toBe('Hi A <b> & "B" Bcc: x@y');
    expect(m.text).toBe('Dear A <b> & "B"\r\nBcc: x@y, https://h/p?a=1&b=2');
    expect(m.html).toBe('<p>A &lt;b&gt; &amp; &quot;B&quot;\r\nBcc: x@y</p><a href="https://h/p?a=1&amp;b=2">x</a>');
  });

  it('a missing value is an error, not an empty hole', () => {
    expect(() => renderMail({ subject: 's', text: '{{resetLink}}' }, {})).toThrow(/no value for \{\{resetLink\}\}/);
  });

  it('parses text and placeholders', () => {
    expect(parseTemplate('a {{b}} c{{ d }}').parts).toEqual([{ text: 'a ' }, { name: 'b' }, { text: ' c' }, { name: 'd' }]);
    expect(parseTemplate('a }} b').error).toMatch(/without/);
  });
});
