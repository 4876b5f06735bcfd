/**
 * "Did you mean": an unknown name is compared with the valid choices by edit distance
 * (case-insensitive), and the closest one is suggested when it is close enough to be a typo (at most
 * a third of the longer name's letters differ, at least one edit allowed, and not every letter).
 */

/**
 * Edit distance between two strings: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each cost 1 (Levenshtein with transpositions, "optimal string alignment"),
 * so the commonest typo, "titel" for "title", is one edit away.
 */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
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
  const list =
    all.length === 0 ? 'there are none' : `expected one of: ${all.slice(0, 30).join(', ')}${all.length > 30 ? `, ... (${all.length - 30} more)` : ''}`;
  return ` (${near !== undefined ? `did you mean "${near}"? ` : ''}${list})`;
}
