import * as z from 'zod';
import { boolish, emailAddress, idish, nonEmptyName, paginationQuery, timestamps, updated } from './common.js';

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const userRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  timezone: z.string(),
  status: z.boolean(),
  client: z.boolean(),
  avatar_url: z.string().nullable(),
  role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  ...timestamps,
});
export type User = z.infer<typeof userRecord>;

const PASSWORD_MIN = 8;
const password = z.string().min(PASSWORD_MIN).max(255);
/** An IANA zone name as the tz database writes them (`Europe/Lisbon`, `UTC`, `Etc/GMT+5`); Intl must know it too. */
const TIMEZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-]*(/[A-Za-z0-9_+\\-]+)*$';
const TIMEZONE = new RegExp(TIMEZONE_PATTERN);
const timezone = z
  .string()
  .refine((name) => TIMEZONE.test(name) && isTimeZone(name), { message: 'The timezone field must be a valid timezone.' })
  // No pattern in the document: text of the pattern's shape is no zone unless the tz database names
  // it (`Abc` is refused), so the rule is said in words and the server checks it.
  .meta({
    minLength: 1,
    maxLength: 64,
    description:
      'An IANA time zone name as the tz database writes it, such as Europe/Lisbon, America/Argentina/Buenos_Aires or UTC; any other text is a 422.',
  });

/** Multipart update: every field optional (decisions.md §3). */
export const userUpdateBody = z
  .object({
    name: nonEmptyName(255).optional(),
    email: emailAddress().max(255).optional(),
    timezone: timezone.optional(),
    status: boolish.optional(),
    client: boolish.optional(),
    password: password.optional(),
    confirm_password: z.string().optional(),
    /** Extension: change the user's role in this workspace. */
    role_id: idish.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.password !== undefined && body.password !== body.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'The password field confirmation does not match.' });
    }
  });
export type UserUpdateBody = z.input<typeof userUpdateBody>;

/** Extension: POST /workspaces/{ws}/users. */
export const userCreateBody = z.object({
  name: nonEmptyName(255),
  email: emailAddress().max(255),
  password,
  role_id: idish,
  timezone: timezone.optional(),
});
export type UserCreateBody = z.input<typeof userCreateBody>;

export const userListQuery = paginationQuery;
export const userUpdatedResponse = updated(userRecord);
