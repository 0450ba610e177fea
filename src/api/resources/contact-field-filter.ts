// The contact list's filter by custom-field value (`fields[city]=Lisbon`, an extension of wsm
// serve). A server that applied it says so in `meta.field_filter`; one that did not (the hosted
// service ignores a parameter it does not know, answering every contact) is walked whole and its
// contacts filtered here, each page so made marked `meta.filtered_here`, so callers say so.
import type { Contact } from '../schemas/index.js';
import type { ListPage, PageParams } from '../pagination.js';

/** Field name -> the value a contact must hold exactly (every one of them). */
export type FieldFilter = Record<string, string>;

const BRACKETED = /^fields\[([^[\]]+)\]$/;

/** The filter a query asks, given as `fields: {city: 'Lisbon'}` or as `fields[city]` keys; the rest of the query apart. */
export function splitFieldFilter(query: object): { rest: PageParams; filter: FieldFilter | undefined } {
  const rest: PageParams = {};
  const filter: FieldFilter = {};
  for (const [key, value] of Object.entries(query)) {
    const bracket = BRACKETED.exec(key);
    if (key === 'fields' && typeof value === 'object' && value !== null) Object.assign(filter, value);
    else if (bracket && value !== undefined) filter[bracket[1]] = String(value);
    else rest[key] = value as PageParams[string];
  }
  return { rest, filter: Object.keys(filter).length > 0 ? filter : undefined };
}

/** The filter as query parameters: `fields[city]=Lisbon`. */
export function filterParams(filter: FieldFilter | undefined): PageParams {
  return Object.fromEntries(Object.entries(filter ?? {}).map(([name, value]) => [`fields[${name}]`, value]));
}

/** As the server compares: values trimmed and in Unicode's composed form (as contact field values are stored). */
const stored = (value: string) => value.trim().normalize('NFC');

/** Does the contact hold every value of the filter? */
export function holdsFilter(filter: FieldFilter): (contact: Contact) => boolean {
  const wanted = Object.entries(filter).map(([name, value]) => [name, stored(value)] as const);
  return (contact) => {
    const fields = (contact as { fields?: unknown }).fields;
    const held = (typeof fields === 'object' && fields !== null ? fields : {}) as Record<string, unknown>;
    return wanted.every(([name, value]) => held[name] === value);
  };
}

/** Did the server apply the filter itself? */
export const serverFiltered = (page: ListPage<unknown>): boolean => page.meta.field_filter !== undefined;

/** The page `page` of `per_page` rows out of every match found by a walk of the whole list, in the API's page shape. */
export function pageOfMatches<T>(matches: T[], page: number, perPage: number, filter: FieldFilter): ListPage<T> {
  const total = matches.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const data = matches.slice((page - 1) * perPage, page * perPage);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    meta: {
      current_page: page,
      per_page: perPage,
      total,
      last_page: lastPage,
      from,
      to: from === null ? null : from + data.length - 1,
      field_filter: filter,
      filtered_here: true,
    },
  };
}
