// Every resource the CLI knows. Each entry only declares commands (no verb code is loaded here).
// To add a resource: one import and one entry below.
import type { Command } from 'commander';
import { registerAuth } from './auth.js';
import { registerProfile } from './profile.js';
import { registerServe } from './serve.js';

export const resources: Array<(program: Command) => void> = [
  registerAuth,
  registerProfile,
  registerServe,
];
