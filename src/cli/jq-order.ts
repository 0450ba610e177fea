// Part of jq's worker (jq-worker.ts, plain CommonJS JavaScript): the order jq's `sort_by(f)`,
// `group_by(f)`, `unique_by(f)`, `min_by(f)` and `max_by(f)` give, found here from each element's
// key (`[f]`, as jq keys it, printed by jq) instead of inside jq, whose sort of 100,000 keys
// grew the CLI by 60 to 90 MB (WebAssembly memory is never given back); this thread's whole
// heap holding them is about 20 MB. The comparison is jq's (jv_cmp): kinds in the order null,
// false, true, numbers, strings, arrays, objects; strings by code point (jq compares their UTF-8
// bytes); arrays element by element; objects by their sorted keys, then their values key by key;
// the sort stable.
// A key this comparison could order otherwise than jq is refused (keyOf gives undefined), and jq
// orders the list itself: a NaN (printed as null), an infinite (printed as the largest number),
// and a number whose text is not the shortest one of its double (jq compares two such numbers
// read from the input as decimals, beyond a double's digits).
// keyOf(line) reads a key line; orderOf(kind, keys) gives the places: a list of them (sort_by,
// unique_by), a list of lists (group_by), or one place or null (min_by, max_by).
export const ORDER = `
function kindOf(value) {
  if (value === null) return 1;
  if (value === false) return 2;
  if (value === true) return 3;
  if (typeof value === 'number') return 4;
  if (typeof value === 'string') return 5;
  return Array.isArray(value) ? 6 : 7;
}
function isSurrogate(unit) {
  return unit >= 0xd800 && unit <= 0xdfff;
}
function compareStrings(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate stands for a code point above every unit outside them.
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
function compareJq(a, b) {
  const kind = kindOf(a);
  const other = kindOf(b);
  if (kind !== other) return kind < other ? -1 : 1;
  if (kind === 4) return a < b ? -1 : a > b ? 1 : 0;
  if (kind === 5) return compareStrings(a, b);
  if (kind === 6) {
    for (let i = 0; ; i++) {
      if (i >= a.length || i >= b.length) return (i >= b.length ? 1 : 0) - (i >= a.length ? 1 : 0);
      const r = compareJq(a[i], b[i]);
      if (r !== 0) return r;
    }
  }
  if (kind === 7) {
    const keys = Object.keys(a).sort(compareStrings);
    const r = compareJq(keys, Object.keys(b).sort(compareStrings));
    if (r !== 0) return r;
    for (const key of keys) {
      const v = compareJq(a[key], b[key]);
      if (v !== 0) return v;
    }
  }
  return 0;
}
function keyOf(line) {
  if (line === '!') return undefined;
  let exact = true;
  const key = JSON.parse(line, (name, value, context) => {
    if (typeof value === 'number' && (String(value) !== context.source || Math.abs(value) === Number.MAX_VALUE)) exact = false;
    return value;
  });
  return exact ? key : undefined;
}
function orderOf(kind, keys) {
  if (kind === 'min_by' || kind === 'max_by') {
    let best = null;
    for (let i = 0; i < keys.length; i++) {
      const r = best === null ? 0 : compareJq(keys[i], keys[best]);
      // jq keeps the first of equal least keys and the last of equal greatest ones.
      if (best === null || (kind === 'min_by' ? r < 0 : r >= 0)) best = i;
    }
    return best;
  }
  const places = keys.map((_, i) => i).sort((i, j) => compareJq(keys[i], keys[j]) || i - j);
  if (kind === 'sort_by') return places;
  const groups = [];
  for (const place of places) {
    const group = groups.at(-1);
    if (group !== undefined && compareJq(keys[group[0]], keys[place]) === 0) group.push(place);
    else groups.push([place]);
  }
  return kind === 'group_by' ? groups : groups.map((group) => group[0]);
}
`;
