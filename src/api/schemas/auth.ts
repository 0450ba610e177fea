import * as z from 'zod';
import { created, deleted, emailAddress, single, timestamps } from './common.js';

/** Extension: POST /auth/tokens. */
export const tokenCreateBody = z.object({ email: emailAddress(), password: z.string().min(1) });
export type TokenCreateBody = z.infer<typeof tokenCreateBody>;
export const tokenCreatedResponse = created(
  z.object({
    token: z.string(),
    user_id: z.number().int(),
    /** decisions.md §7: a token from /auth/tokens expires, 30 days after it is issued by default. */
    expires_at: z.string().describe('ISO 8601, UTC: when the token stops working'),
  }),
);
export type TokenCreated = z.infer<typeof tokenCreatedResponse>['data'];

/** Extension: DELETE /auth/tokens/current revokes the token of the request. */
export const tokenRevokedResponse = deleted;

/** Extension: GET /me. */
export const meRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  partner: z.boolean(),
  workspaces: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      permissions: z
        .array(z.string())
        .describe("What the user may do there: its role's permissions the workspace enables (all of them for a partner that created it)."),
    }),
  ),
  ...timestamps,
});
export type Me = z.infer<typeof meRecord>;
export const meResponse = single(meRecord);
