// The API documentation page (GET /api/docs): fetches /api/openapi.json with the portal's session
// of this browser (the admin keeps its token in localStorage "portal.token") and renders every
// operation by tag, with parameters, request bodies and answers. Plain DOM, no library, no inline
// script: it runs under the portal's Content-Security-Policy.

const TOKEN_KEY = 'portal.token';
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

let doc = null;
const componentOf = (ref) => (typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null);
const resolve = (s) => {
  const name = s && componentOf(s.$ref);
  return name ? doc.components.schemas[name] : s;
};

function typeOf(s) {
  s = resolve(s) ?? {};
  if (s.enum) return `enum: ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return `= ${JSON.stringify(s.const)}`;
  if (s.oneOf) return s.oneOf.map(typeOf).join(' | ');
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    if (s.prefixItems) return `[${s.prefixItems.map(typeOf).join(', ')}]`;
    return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  }
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? (s.$ref ? componentOf(s.$ref) : 'any'));
  return s.format ? `${t} (${s.format})` : t;
}

/** Limits and rules of a property, as one line. */
function constraints(s) {
  s = resolve(s) ?? {};
  const out = [];
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'maxDecimals', 'maxBytes', 'maxItems', 'pattern', 'notBlank', 'notBeforeToday'])
    if (s[k] !== undefined) out.push(`${k} ${s[k]}`);
  for (const part of s.allOf ?? []) {
    const rule = typeof part.$comment === 'string' && part.$comment.startsWith('rule:') ? part.$comment.slice(5) : null;
    const limits = Object.entries(part)
      .filter(([k]) => k !== '$comment')
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
    out.push(`${rule ? `rule ${rule}` : 'also'}${limits.length ? ` (${limits.join(', ')})` : ''}`);
  }
  if (s.description) out.push(s.description);
  return out.join('; ');
}

function schemaView(schema) {
  const name = componentOf(schema?.$ref);
  const s = resolve(schema);
  if (!s) return el('p', { text: 'any' });
  const wrap = el('div');
  if (name) wrap.append(el('p', {}, el('code', { text: name })));
  const target = s.type === 'array' && s.items ? resolve(s.items) : s;
  if (target && target.properties) {
    const required = new Set(target.required ?? []);
    wrap.append(
      el(
        'table',
        {},
        el('tr', {}, el('th', { text: 'field' }), el('th', { text: 'type' }), el('th', { text: 'required' }), el('th', { text: 'limits and rules' })),
        Object.entries(target.properties).map(([k, v]) =>
          el(
            'tr',
            {},
            el('td', {}, el('code', { text: k })),
            el('td', { text: typeOf(v) }),
            el('td', { text: required.has(k) ? 'yes' : '' }),
            el('td', { text: constraints(v) }),
          ),
        ),
      ),
    );
    if (target !== s) wrap.prepend(el('p', { text: 'an array of:' }));
  } else wrap.append(el('pre', { text: JSON.stringify(s, null, 2) }));
  return wrap;
}

function operationView(path, method, op) {
  const body = el('div', { class: 'body' });
  if (op.description) body.append(el('p', { text: op.description }));
  body.append(
    el(
      'p',
      {},
      'operationId ',
      el('code', { text: op.operationId }),
      '; ',
      op.security && op.security.length === 0 ? 'no token' : op.security?.some((x) => Object.keys(x).length === 0) ? 'token optional' : 'bearer token',
    ),
  );
  if (op.parameters?.length) {
    body.append(el('h4', { text: 'Parameters' }));
    body.append(
      el(
        'table',
        {},
        el('tr', {}, el('th', { text: 'name' }), el('th', { text: 'in' }), el('th', { text: 'type' }), el('th', { text: 'description' })),
        op.parameters.map((p) => {
          const schema = p.schema ?? p.content?.['application/json']?.schema;
          return el(
            'tr',
            {},
            el('td', {}, el('code', { text: p.name })),
            el('td', { text: p.in + (p.required ? ', required' : '') }),
            el('td', { text: p.content ? `JSON: ${typeOf(schema)}` : typeOf(schema) }),
            el('td', { text: [p.description, constraints(schema)].filter(Boolean).join('; ') }),
          );
        }),
      ),
    );
    for (const p of op.parameters) {
      const s = p.content?.['application/json']?.schema;
      if (s?.properties) body.append(el('h4', { text: `${p.name}: keys` }), schemaView(s));
    }
  }
  if (op.requestBody) {
    for (const [media, m] of Object.entries(op.requestBody.content ?? {})) body.append(el('h4', { text: `Request body (${media})` }), schemaView(m.schema));
  }
  body.append(el('h4', { text: 'Answers' }));
  for (const [code, r0] of Object.entries(op.responses ?? {})) {
    const r = r0.$ref ? doc.components.responses[r0.$ref.split('/').pop()] : r0;
    const row = el('div', {}, el('p', {}, el('strong', { text: code }), ' ', r.description ?? ''));
    const json = r.content?.['application/json']?.schema;
    if (json && !r0.$ref) row.append(schemaView(json));
    body.append(row);
  }
  const details = el(
    'details',
    { class: 'op', 'data-search': `${method} ${path} ${op.summary} ${op.tags.join(' ')}`.toLowerCase() },
    el(
      'summary',
      {},
      el('span', { class: `method ${method}`, text: method.toUpperCase() }),
      el('span', { class: 'path', text: path }),
      el('span', { class: 'summary', text: op.summary }),
    ),
  );
  details.append(body);
  return details;
}

function render() {
  $('title').textContent = doc.info.title;
  $('version').textContent = `OpenAPI ${doc.openapi} · metadata ${doc.info.version}`;
  document.title = doc.info.title;
  const content = $('content');
  content.replaceChildren(el('div', { class: 'intro', text: doc.info.description }));
  const byTag = new Map(doc.tags.map((t) => [t.name, []]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operationView(path, method, op));
    }
  }
  for (const t of doc.tags) {
    const ops = byTag.get(t.name) ?? [];
    if (ops.length) content.append(el('section', { class: 'tag', 'data-tag': t.name }, el('h2', { text: t.name }), el('p', { text: t.description }), ops));
  }
}

function filter(text) {
  const q = text.trim().toLowerCase();
  for (const section of document.querySelectorAll('section.tag')) {
    let any = false;
    for (const op of section.querySelectorAll('details.op')) {
      const hit = !q || op.dataset.search.includes(q);
      op.classList.toggle('hidden', !hit);
      any ||= hit;
    }
    section.classList.toggle('hidden', !any);
  }
}

async function main() {
  const token = localStorage.getItem(TOKEN_KEY);
  const status = $('status');
  const res = await fetch('/api/openapi.json', {
    headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : { Accept: 'application/json' },
  });
  if (res.status === 401) {
    status.className = 'status error';
    status.replaceChildren(
      'The document is for logged-in users: ',
      el('a', { href: '/login', text: 'log in to the portal' }),
      ' in this browser, then open this page again.',
    );
    return;
  }
  if (!res.ok) {
    status.className = 'status error';
    status.textContent = `The document could not be loaded (${res.status}).`;
    return;
  }
  doc = await res.json();
  render();
  $('search').addEventListener('input', (e) => filter(e.target.value));
}

void main();
