// "Did you mean": the known names closest to a mistyped one, by the rule commander uses for an
// unknown flag (optimal string alignment distance of at most 3, and at least 40% of the longer
// name in common), so a misspelt --json field or file key is answered like a misspelt flag.
const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidates closest to `word` (several only when equally close), sorted; none when nothing is close. */
export function closest(word: string, candidates: Iterable<string>): string[] {
  let best = MAX_DISTANCE;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate.length <= 1 || candidate === word) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < best) [best, found] = [distance, [candidate]];
    else if (distance === best) found.push(candidate);
  }
  return found.sort((x, y) => x.localeCompare(y));
}

/** ` (did you mean "name"?)`, ` (did you mean one of "a", "b"?)`, or '' when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = closest(word, candidates).map((name) => `"${name}"`);
  if (found.length === 0) return '';
  return found.length === 1 ? ` (did you mean ${found[0]}?)` : ` (did you mean one of ${found.join(', ')}?)`;
}
