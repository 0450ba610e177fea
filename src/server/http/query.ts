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
  for (const [key, value] of Object.entries(query)) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (bracket && names.includes(bracket[1])) (records[bracket[1]] ??= {})[bracket[2]] = value;
    else rest[key] = value;
  }
  return { ...rest, ...records };
}
