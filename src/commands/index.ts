// Every resource the CLI knows, loaded on demand: `wsm contacts list` imports only contacts.ts,
// and `wsm --help` imports none of them (it lists the names with SUMMARIES).
// To add a resource: a summary in summaries.ts and one entry below.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';

/** `target`: the command line names this resource (not a declaration for the help or for completion). */
type Register = (program: Command, declared: { target: boolean }) => void;

export interface ResourceEntry {
  name: keyof typeof SUMMARIES;
  /** Commands that take arguments or options themselves: always declared in full, as the top-level help shows them. */
  leaf?: boolean;
  load: () => Promise<Register>;
}

export const resources: ResourceEntry[] = [
  { name: 'auth', load: async () => (await import('./auth.js')).registerAuth },
  { name: 'profile', load: async () => (await import('./profile.js')).registerProfile },
  { name: 'serve', leaf: true, load: async () => (await import('./serve.js')).registerServe },
  { name: 'workspace', load: async () => (await import('./workspace.js')).registerWorkspace },
  { name: 'permissions', load: async () => (await import('./permissions.js')).registerPermissions },
  { name: 'contacts', load: async () => (await import('./contacts.js')).registerContacts },
  { name: 'groups', load: async () => (await import('./groups.js')).registerGroups },
  { name: 'fields', load: async () => (await import('./fields.js')).registerFields },
  { name: 'imports', load: async () => (await import('./imports.js')).registerImports },
  { name: 'labels', load: async () => (await import('./labels.js')).registerLabels },
  { name: 'roles', load: async () => (await import('./roles.js')).registerRoles },
  { name: 'users', load: async () => (await import('./users.js')).registerUsers },
  { name: 'templates', load: async () => (await import('./templates.js')).registerTemplates },
  { name: 'pull', load: async () => (await import('./pull.js')).registerPull },
  { name: 'diff', leaf: true, load: async () => (await import('./diff.js')).registerDiff },
  { name: 'apply', leaf: true, load: async () => (await import('./apply.js')).registerApply },
  { name: 'api', leaf: true, load: async () => (await import('./api.js')).registerApi },
  { name: 'completion', leaf: true, load: async () => (await import('./completion.js')).registerCompletion },
];

/** Global options that take a value: their value is not the resource name. */
const VALUE_FLAGS = new Set(['--profile', '--base-url', '--token', '-w', '--workspace', '-o', '--output']);

/** The resource the command line names (`wsm -o json contacts list` -> contacts; `wsm help users` -> users). */
export function targetResource(argv: string[]): string | undefined {
  const operands: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_FLAGS.has(arg)) i += 1;
      continue;
    }
    operands.push(arg);
    if (operands.length === 2) break;
  }
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/**
 * Declares the resources on `program`: in full the one the command line names (every resource
 * for `completion`, which prints the whole tree), the leaves, and the others as name + summary
 * only, which is all the top-level help and commander's "did you mean" need.
 */
export async function declareResources(program: Command, argv: string[]): Promise<void> {
  const target = targetResource(argv);
  const everything = target === 'completion';
  const registers = await Promise.all(
    resources.map((entry) => (everything || entry.leaf || entry.name === target ? entry.load() : undefined)),
  );
  resources.forEach((entry, index) => {
    const register = registers[index];
    if (register) register(program, { target: entry.name === target });
    else program.command(entry.name).description(SUMMARIES[entry.name]);
  });
}
