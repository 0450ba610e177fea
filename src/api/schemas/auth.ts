import { z } from 'zod';
import { created, single, timestamps } from './common.js';

/** Extension: POST /auth/tokens. */
export const tokenCreateBody = z.object({ email: z.email(), password: z.string().min(1) });
export type TokenCreateBody = z.infer<typeof tokenCreateBody>;
export const tokenCreatedResponse = created(z.object({ token: z.string(), user_id: z.number().int() }));

/** Extension: GET /me. */
export const meRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  partner: z.boolean(),
  workspaces: z.array(z.object({ id: z.uuid(), name: z.string(), role: z.object({ id: z.number().int(), name: z.string() }).nullable() })),
  ...timestamps,
});
export type Me = z.infer<typeof meRecord>;
export const meResponse = single(meRecord);
