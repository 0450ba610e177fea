import * as z from 'zod';
import { created, nonEmptyName, single, timestamps } from './common.js';

export const workspaceId = z.uuid();

export const workspaceRecord = z.object({ id: z.uuid(), name: z.string(), ...timestamps });
export type Workspace = z.infer<typeof workspaceRecord>;

/** Extension: POST /workspaces. */
export const workspaceCreateBody = z.object({ name: nonEmptyName(255) });
export type WorkspaceCreateBody = z.infer<typeof workspaceCreateBody>;

export const workspaceResponse = single(workspaceRecord);
export const workspaceCreatedResponse = created(workspaceRecord);
