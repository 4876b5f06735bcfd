/**
 * Where a JSON text breaks, as line and column (1-based) with what was expected there. JSON.parse
 * says it only sometimes, as a character offset, in words that change between Node versions; this
 * small scanner walks the grammar (RFC 8259) and stops at the first character that does not fit.
 * It is only called on text JSON.parse refused, so speed does not matter.
 */

export interface JsonSyntaxError {
  line: number;
  column: number;
  /** what was expected, and what was found */
  message: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

function scan(text: string): void {
  let i = 0;
  const found = () => (i >= text.length ? 'the end of the file' : `${JSON.stringify(text[i])}`);
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${found()}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const word = (w: string) => {
    for (const ch of w) {
      if (text[i] !== ch) fail(`"${w}"`);
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail('a double-quoted string');
    i++;
    for (;;) {
      if (i >= text.length) fail('the closing quote of the string');
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch < ' ') fail('the string to end on its line (a line break inside a string is written \\n)');
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('four hex digits after \\u');
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail('an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX');
      }
      i++;
    }
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i++;
    else fail('a digit');
    if (text[i] === '.') {
      i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit after the decimal point');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit in the exponent');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'a property name (no comma before "}")' : 'a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':') fail('":" after the property name');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}" after a property value');
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('a value (no comma before "]")');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]" after an array element');
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return word('true');
    if (ch === 'f') return word('false');
    if (ch === 'n') return word('null');
    if (ch === '-' || /[0-9]/.test(ch ?? '')) return number();
    fail('a value (object, array, string, number, true, false or null)');
  };
  value();
  ws();
  if (i < text.length) fail('the end of the file after the value');
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    scan(text);
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    const column = e.at - before.lastIndexOf('\n');
    return { line, column, message: e.message };
  }
}
