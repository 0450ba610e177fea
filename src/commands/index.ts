// Every resource the CLI knows. Each entry only declares commands (no verb code is loaded here).
// To add a resource: one import and one entry below.
import type { Command } from 'commander';
import { registerAuth } from './auth.js';
import { registerProfile } from './profile.js';
import { registerServe } from './serve.js';
import { registerWorkspace } from './workspace.js';
import { registerPermissions } from './permissions.js';
import { registerContacts } from './contacts.js';
import { registerGroups } from './groups.js';
import { registerFields } from './fields.js';
import { registerImports } from './imports.js';
import { registerLabels } from './labels.js';
import { registerRoles } from './roles.js';
import { registerUsers } from './users.js';
import { registerTemplates } from './templates.js';
import { registerApi } from './api.js';
import { registerCompletion } from './completion.js';

export const resources: Array<(program: Command) => void> = [
  registerAuth,
  registerProfile,
  registerServe,
  registerWorkspace,
  registerPermissions,
  registerContacts,
  registerGroups,
  registerFields,
  registerImports,
  registerLabels,
  registerRoles,
  registerUsers,
  registerTemplates,
  registerApi,
  registerCompletion,
];
