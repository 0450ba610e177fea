import * as z from 'zod';
import { created, nonEmptyName, single, timestamps } from './common.js';

export const workspaceRecord = z.object({ id: z.uuid(), name: z.string(), ...timestamps });
export type Workspace = z.infer<typeof workspaceRecord>;

/** Extension: POST /workspaces. */
export const workspaceCreateBody = z.object({ name: nonEmptyName(255).describe('Name of the new workspace.') });

export const workspaceResponse = single(workspaceRecord);
export const workspaceCreatedResponse = created(workspaceRecord);
