/**
 * Bracketed query keys as a record: `fields[city]=Lisbon&fields[tier]=gold` arrives as the keys
 * `fields[city]` and `fields[tier]` (the query parser reads no brackets) and is checked as
 * `fields: {city: 'Lisbon', tier: 'gold'}`. Only the names given are read this way, so no other
 * parameter changes shape.
 */
export function withBracketRecords(query: unknown, ...names: string[]): unknown {
  if (typeof query !== 'object' || query === null) return query;
  const rest: Record<string, unknown> = {};
  const records: Record<string, Record<string, unknown>> = {};
  // Null-prototype records, so that `fields[__proto__]` is a key like any other (and refused as no
  // field), never the record's prototype.
  const recordOf = (name: string) => (records[name] ??= Object.create(null) as Record<string, unknown>);
  for (const [key, value] of Object.entries(query)) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    const opened = /^([^[\]]+)\[/.exec(key);
    if (bracket && names.includes(bracket[1])) recordOf(bracket[1])[bracket[2]] = value;
    // `fields[city][x]` or `fields[city][]`: kept under its whole inner text, which names no field
    // (a 422), rather than dropped, which would answer the list unfiltered.
    else if (opened && names.includes(opened[1])) recordOf(opened[1])[key.slice(opened[0].length)] = value;
    else rest[key] = value;
  }
  return { ...rest, ...records };
}
