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
const password = z.string().min(PASSWORD_MIN).max(255).describe('Password, at least 8 characters.');
const roleId = idish.describe('Id of the role (from roles.list) the user holds in this workspace.');
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
    name: nonEmptyName(255).optional().describe('New full name.'),
    email: emailAddress().max(255).optional().describe('New e-mail address.'),
    timezone: timezone.optional(),
    status: boolish.optional().describe('Active (true) or deactivated (false) in this workspace.'),
    client: boolish.optional().describe('Whether the user is a client (true) rather than staff.'),
    password: password.optional(),
    confirm_password: z.string().optional().describe('The same password again, when changing it.'),
    /** Extension: change the user's role in this workspace. */
    role_id: roleId.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.password !== undefined && body.password !== body.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'The password field confirmation does not match.' });
    }
  });
export type UserUpdateBody = z.input<typeof userUpdateBody>;

/** Extension: POST /workspaces/{ws}/users. */
export const userCreateBody = z.object({
  name: nonEmptyName(255).describe('Full name of the user.'),
  email: emailAddress().max(255).describe('E-mail address the user signs in with.'),
  password,
  role_id: roleId,
  timezone: timezone.optional(),
});
export type UserCreateBody = z.input<typeof userCreateBody>;

export const userListQuery = paginationQuery;
export const userUpdatedResponse = updated(userRecord);
