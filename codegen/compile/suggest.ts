/**
 * "Did you mean": an unknown name is compared with the valid choices by edit distance
 * (Levenshtein, case-insensitive), and the closest one is suggested when it is close enough to be a
 * typo (at most a third of the longer name's letters differ, and at least one letter matches).
 */

/** Edit distance between two strings: insertions, deletions and substitutions each cost 1. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The choice closest to `name`, when it is close enough to be what was meant; ties go to the first. */
export function closest(name: string, choices: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of choices) {
    if (c === name) continue;
    const d = levenshtein(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const longer = Math.max(name.length, best.length);
  return bestDistance <= Math.max(1, Math.floor(longer / 3)) && bestDistance < longer ? best : undefined;
}

/**
 * The tail of an "unknown name" message: ` (did you mean "title"? expected one of: a, b, c)`.
 * Long lists are cut after 30 names; an empty list says so.
 */
export function choicesHint(name: string, choices: Iterable<string>): string {
  const all = [...choices];
  const near = closest(name, all);
  const list = all.length === 0 ? 'there are none' : `expected one of: ${all.slice(0, 30).join(', ')}${all.length > 30 ? `, ... (${all.length - 30} more)` : ''}`;
  return ` (${near !== undefined ? `did you mean "${near}"? ` : ''}${list})`;
}
