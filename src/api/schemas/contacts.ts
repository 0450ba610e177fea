import * as z from 'zod';
import { CSV_BOOLEAN_FORMAT, decodeGroupNames, isScientificNotation, readCsvBoolean } from '../../formats/csv/cells.js';
import { boolish, emailAddress, idish, listOf, nfc, paginationQuery, timestamps, updated, visible } from './common.js';
import { groupCreateBody } from './groups.js';

export const GENDERS = ['male', 'female', 'other'] as const;
export const CONTACT_NAME_MAX = 50;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** decisions.md §3: spaces, dashes, dots, parentheses and a leading + are dropped. */
export function normalizeNumber(raw: string): string {
  return raw
    .trim()
    .replace(/[\s\-.()]/g, '')
    .replace(/^\+/, '');
}
const NUMBER_PATTERN = /^\d{7,15}$/;

/** Digits written the ways a phone number is: spaces, dashes, dots, parentheses, a leading +. */
const NUMBER_LIKE = /^\+?[\d\s\-.()]*\d[\d\s\-.()]*$/;

/**
 * The number a contact search names, as numbers are stored (normalizeNumber), when the query is
 * written as a phone number is (`+351 912-345`); undefined for any other query. A search finds its
 * text as typed in name, number and e-mail, and these digits in the number as well
 * (docs/decisions.md, "Search: text and a number's digits").
 */
export function searchedNumber(query: string): string | undefined {
  return NUMBER_LIKE.test(query.trim()) ? normalizeNumber(query) : undefined;
}

/** NUMBER_PATTERN as sent, before normalizeNumber: what the document states of a number. */
const SENT_NUMBER_PATTERN = '^[\\s\\-.()]*\\+?[\\s\\-.()]*(\\d[\\s\\-.()]*){7,15}$';

const contactNumber = z
  .string()
  .transform(normalizeNumber)
  .pipe(z.string().regex(NUMBER_PATTERN, 'The number must be a phone number of 7 to 15 digits.'))
  .meta({ minLength: 7, pattern: SENT_NUMBER_PATTERN });

const FIELD_VALUE_MAX = 1024;
/** A contact's name on create: may be left out or empty, never invisible (control or format characters only). */
const contactName = visible(z.string().trim().max(CONTACT_NAME_MAX)).transform(nfc);
const email = emailAddress().max(255).transform(nfc).nullable().describe('E-mail address, or null to clear it.');
const gender = z.enum(GENDERS).nullable().describe('male, female or other; null clears it.');
const contactGroups = listOf(idish).describe(
  'Ids of contact groups (from groups.list) the contact is in; replaces every group, [] for none.',
);
/** Extension: custom field values by contact-field name, trimmed (an empty value removes the field). */
export const fieldValues = z.record(z.string(), z.string().trim().max(FIELD_VALUE_MAX).transform(nfc));

export const contactRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  number: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  status: z.boolean(),
  avatar_url: z.string().nullable(),
  contact_groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
  fields: z.record(z.string(), z.string()),
  ...timestamps,
});
export type Contact = z.infer<typeof contactRecord>;

export const contactCreateBody = z.object({
  number: contactNumber.describe('Phone number, with or without + and separators (+351 912 345 601); stored as its 7 to 15 digits.'),
  name: contactName.optional().describe('Display name, at most 50 characters (default "Unknown").'),
  email: email.optional(),
  gender: gender.optional(),
  status: boolish.optional().describe('Active (true, the default) or inactive (false).'),
  contact_groups: contactGroups.optional(),
  fields: fieldValues.optional().describe('Custom field values by field name (names from fields.list): {"city": "Lisbon"}.'),
});
export type ContactCreateBody = z.input<typeof contactCreateBody>;

/** `number` sent on update is ignored (the published API); `name` is required. */
export const contactUpdateBody = z.object({
  name: visible(z.string().trim().min(1).max(CONTACT_NAME_MAX)).transform(nfc).describe('New display name, at most 50 characters.'),
  email: email.optional(),
  gender: gender.optional(),
  status: boolish.optional().describe('Active (true) or inactive (false).'),
  contact_groups: contactGroups.optional(),
  fields: fieldValues
    .optional()
    .describe('Custom field values to set, by field name (names from fields.list); an empty value removes the field.'),
});
export type ContactUpdateBody = z.input<typeof contactUpdateBody>;

/** Field values one list may filter on: each is a join, and a query joins at most 64 tables in SQLite. */
const FIELD_FILTER_MAX = 32;

export const contactListQuery = paginationQuery.extend({
  search: z.string().max(255).optional().describe('Part of the name, number or e-mail, in any case.'),
  /** Extension: `fields[city]=Lisbon`, only contacts holding each value exactly (as stored: trimmed, NFC). */
  fields: z
    .record(z.string().min(1), z.string().trim().min(1).max(FIELD_VALUE_MAX).transform(nfc))
    .refine((values) => Object.keys(values).length <= FIELD_FILTER_MAX, `At most ${FIELD_FILTER_MAX} fields can be filtered on at once.`)
    .optional()
    .describe('Custom field values the contacts must hold exactly, by field name (names from fields.list): {"city": "Lisbon"}.'),
});

export const contactUpdatedResponse = updated(contactRecord);

/**
 * A `contact_groups` cell of the contact CSV (formats/csv/cells.ts): a JSON array of group names, each a
 * valid group name. Read by the import and by `contacts update --from`.
 */
export const groupNamesCell = z
  .string()
  .transform((cell, ctx) => {
    const names = decodeGroupNames(cell);
    if (Array.isArray(names)) return names;
    ctx.addIssue({ code: 'custom', message: names.error, params: { custom: true } });
    return z.NEVER;
  })
  .pipe(z.array(groupCreateBody.shape.name));

/**
 * The cells of a CSV row as spreadsheets write them (decisions.md, "The operator's loop"), read alike by the
 * import and by `contacts update --from`: `status` takes TRUE/FALSE in any case, yes/no, 1/0
 * (formats/csv/cells.ts readCsvBoolean); `gender` is matched without case (`Female` is female); a
 * number a spreadsheet turned into scientific notation is named as such, not as a bad number.
 */
const csvStatus = z.string().transform((cell, ctx) => {
  const value = readCsvBoolean(cell);
  if (value !== undefined) return value;
  ctx.addIssue({ code: 'custom', message: `The status field ${CSV_BOOLEAN_FORMAT}, not "${cell.trim()}".`, params: { custom: true } });
  return z.NEVER;
});
const csvGender = z
  .string()
  .transform((cell) => cell.trim().toLowerCase())
  .pipe(z.enum(GENDERS));
const csvNumber = z
  .string()
  .superRefine((cell, ctx) => {
    if (!isScientificNotation(cell)) return;
    ctx.addIssue({
      code: 'custom',
      message: `The number cell holds "${cell.trim()}", a number in scientific notation: a spreadsheet wrote it so and its last digits are lost (format the column as text and save the file again).`,
      params: { custom: true },
      abort: true,
    });
  })
  .pipe(contactNumber);

/**
 * What a row of an import CSV must satisfy (decisions.md §3, §8): the rules of `contacts create`
 * (lengths, e-mail, number, field values), with the groups named rather than given by id and the
 * cells read as spreadsheets write them (above). Shared by the server's import and the CLI's check.
 */
export const importRow = contactCreateBody.omit({ contact_groups: true }).extend({
  number: csvNumber,
  gender: csvGender.optional(),
  status: csvStatus.optional(),
  contact_groups: groupNamesCell.optional(),
});
export type ImportRow = z.output<typeof importRow>;
