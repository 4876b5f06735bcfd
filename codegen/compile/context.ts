/**
 * What every compile step shares: the sources, the errors found so far (each names the file, the
 * JSON pointer and what was expected), and the look-ups the steps make of each other's results:
 * translations (needKey, labelOf), code tables (codeOf) and "unknown name" messages with a
 * did-you-mean. A step reads the context and adds to it; it never reads another step's locals.
 */
import { MetadataError, type MetadataSources } from '../load.ts';
import { LOCALES, type CompiledCodeTable, type Locale } from '../runtime/model.ts';
import { choicesHint, closest } from './suggest.ts';

export type Report = (file: string, pointer: string, detail: string) => void;
/** `of`: what the name belongs to ('of entity "notice"'); `prefix`: what refers to it ('action "ship": ') */
export interface UnknownOptions {
  of?: string;
  prefix?: string;
}

/** The reporting half of the context, with pointers relative to a base (a screen inside an entity file). */
export interface Reporter {
  err: Report;
  /** requires a label key in both languages */
  needKey(file: string, pointer: string, key: string, what: string): void;
  /** code key -> stored code, reporting unknown keys */
  codeOf(file: string, pointer: string, table: string, key: unknown): string;
  /**
   * Reports `name` as unknown among `choices`, with a did-you-mean:
   * `${prefix}unknown ${what} "name" ${of} (did you mean "x"? expected one of: ...)`.
   */
  unknown(file: string, pointer: string, what: string, name: string, choices: Iterable<string>, opts?: UnknownOptions): void;
}

export class CompileContext implements Reporter {
  readonly errors: MetadataError[] = [];
  /** locale -> key -> text, filled by the catalogue step */
  readonly cat = new Map<Locale, Map<string, string>>();
  /** filled by the code-table step */
  codeTables: Record<string, CompiledCodeTable> = {};

  constructor(readonly src: MetadataSources) {}

  readonly err: Report = (file, pointer, detail) => {
    this.errors.push(new MetadataError(file, pointer, detail));
  };

  unknown(file: string, pointer: string, what: string, name: string, choices: Iterable<string>, opts: UnknownOptions = {}): void {
    this.err(file, pointer, `${opts.prefix ?? ''}unknown ${what} "${name}"${opts.of ? ` ${opts.of}` : ''}${choicesHint(name, choices)}`);
  }

  hasKey = (key: string): boolean => LOCALES.every((l) => this.cat.get(l)?.has(key));

  /** the text of a key in one language */
  text = (locale: Locale, key: string): string | undefined => this.cat.get(locale)?.get(key);

  needKey = (file: string, pointer: string, key: string, what: string): void => {
    const missing = LOCALES.filter((l) => !this.cat.get(l)?.has(key));
    if (!missing.length) return;
    // a typo of an existing key is the likely cause: name the closest key both languages have
    const near = missing.length === LOCALES.length ? closest(key, [...(this.cat.get(LOCALES[0])?.keys() ?? [])].filter(this.hasKey)) : undefined;
    this.err(file, pointer, `${what}: label key "${key}" is missing in ${missing.join(' and ')}${near ? ` (did you mean "${near}"?)` : ''}`);
  };

  /** first key of the candidates that exists; the first is reported when none does */
  labelOf = (file: string, pointer: string, what: string, explicit: string | undefined, ...candidates: string[]): string => {
    if (explicit) {
      this.needKey(file, pointer, explicit, what);
      return explicit;
    }
    const found = candidates.find(this.hasKey);
    if (found) return found;
    this.err(file, pointer, `${what}: no label; expected one of the keys ${candidates.map((c) => `"${c}"`).join(', ')} in both zh-CN and en-US`);
    return candidates[0];
  };

  codeOf = (file: string, pointer: string, table: string, key: unknown): string => {
    const t = this.codeTables[table];
    // an unknown table is reported where it is named; its keys are not reported again
    if (!t) return String(key);
    const hit = t.values.find((x) => x.key === key);
    if (!hit) {
      this.unknown(
        file,
        pointer,
        'code key',
        String(key),
        t.values.map((x) => x.key),
        { of: `of table "${table}"` },
      );
      return String(key);
    }
    return hit.code;
  };

  /** The same reporting, with every pointer prefixed by `base` (screens declared inside an entity file start at /screens/<i>). */
  at(base: string): Reporter {
    if (!base) return this;
    return {
      err: (file, pointer, detail) => this.err(file, base + pointer, detail),
      needKey: (file, pointer, key, what) => this.needKey(file, base + pointer, key, what),
      codeOf: (file, pointer, table, key) => this.codeOf(file, base + pointer, table, key),
      unknown: (file, pointer, what, name, choices, opts) => this.unknown(file, base + pointer, what, name, choices, opts),
    };
  }
}
