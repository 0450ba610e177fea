/**
 * The contact list filtered by custom-field values (`fields[city]=Lisbon&fields[tier]=gold`), an
 * extension of ours: exact values, every one required (AND), optionally with a search. The first
 * value's matches are read in contact id order from the index on (field_id, value, contact_id)
 * (migration 013); each further value is a primary-key probe of the same contact, and a search
 * compares the matched contacts' keys and number as search does (HOLDS_QUERY). Totals are kept per filter until the
 * database changes (generations.ts), as search's are: a walk of every page counts once.
 */
import type { Db } from '../db.js';
import { HOLDS_QUERY, queryParams, searchTerms } from './contact-search.js';
import { generationsOf } from './generations.js';

/** A field of the workspace (resolved by name) and the value its contacts must hold. */
export interface FieldValue {
  fieldId: number;
  value: string;
}

const KEPT_TOTALS = 256;

export function createContactFilter(db: Db) {
  const generations = generationsOf(db);
  const totals = generations.cache<number>(KEPT_TOTALS);
  const statements = new Map<string, { page: ReturnType<Db['prepare']>; count: ReturnType<Db['prepare']> }>();

  /** The statements for `count` values, with or without a search; made once each. */
  function statementsFor(count: number, searching: boolean) {
    const name = `${count}/${searching}`;
    let made = statements.get(name);
    if (made) return made;
    const joins = Array.from(
      { length: count - 1 },
      (_, i) =>
        `JOIN contact_field_values v${i + 1} ON v${i + 1}.contact_id = v0.contact_id AND v${i + 1}.field_id = @f${i + 1} AND v${i + 1}.value = @v${i + 1}`,
    );
    if (searching) joins.push(`JOIN contacts c ON c.id = v0.contact_id AND ${HOLDS_QUERY}`);
    const from = `contact_field_values v0 ${joins.join(' ')} WHERE v0.field_id = @f0 AND v0.value = @v0`;
    made = {
      page: db.prepare(`SELECT v0.contact_id FROM ${from} ORDER BY v0.contact_id LIMIT @limit OFFSET @offset`).pluck(),
      count: db.prepare(`SELECT count(*) FROM ${from}`).pluck(),
    };
    statements.set(name, made);
    return made;
  }

  /** One page of the contacts holding every value (field ids are the workspace's own), and their total. */
  const filter = db.transaction(
    (values: FieldValue[], search: string | undefined, offset: number, limit: number): { ids: number[]; total: number } => {
      const params: Record<string, string | number> = {};
      values.forEach(({ fieldId, value }, i) => {
        params[`f${i}`] = fieldId;
        params[`v${i}`] = value;
      });
      if (search !== undefined) Object.assign(params, queryParams(searchTerms(search)));
      const { page, count } = statementsFor(values.length, search !== undefined);
      const ids = page.all({ ...params, limit, offset }) as number[];
      const total = totals.through(generations.look(), JSON.stringify(params), () => count.get(params) as number)!;
      return { ids, total };
    },
  );

  return { filter };
}
