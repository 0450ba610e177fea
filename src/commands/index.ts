// Every command the CLI knows, loaded on demand: `wsm contacts list` imports only contacts.ts,
// and `wsm --help` imports none of them (it lists the names with SUMMARIES). A resource the API
// catalog calls a plain collection (`collection: true`) is declared by collection.ts from its entry
// in collections.ts, so adding one needs no line here; any other has its module in OWN_RESOURCES.
import type { Command } from 'commander';
import { CATALOG, type ResourceIdentity } from '../api/descriptions/catalog.js';
import { SUMMARIES } from './summaries.js';

/** `target`: the command line names this resource (not a declaration for the help or for completion). */
type Register = (program: Command, declared: { target: boolean }) => void;

interface ResourceEntry {
  name: keyof typeof SUMMARIES;
  /** Commands that take arguments or options themselves: declared in full for the top-level help, which shows them. */
  leaf?: boolean;
  load: () => Promise<Register>;
}

type Own = Omit<ResourceEntry, 'name'>;
/** Commands by name, each a known command (summaries.ts). */
type Modules = Partial<Record<ResourceEntry['name'], Own>>;

/**
 * Commands with a module of their own. `wsm --help` lists LEADING (auth, then the CLI's profile and
 * serve), the API's resources in the catalog's order (OWN_RESOURCES or a plain collection), then TRAILING.
 */
const LEADING: Modules = {
  auth: { load: async () => (await import('./auth.js')).registerAuth },
  profile: { load: async () => (await import('./profile.js')).registerProfile },
  serve: { leaf: true, load: async () => (await import('./serve.js')).registerServe },
};
export const OWN_RESOURCES: Modules = {
  workspace: { load: async () => (await import('./workspace.js')).registerWorkspace },
  permissions: { load: async () => (await import('./permissions.js')).registerPermissions },
  contacts: { load: async () => (await import('./contacts.js')).registerContacts },
  imports: { load: async () => (await import('./imports.js')).registerImports },
  users: { load: async () => (await import('./users.js')).registerUsers },
  templates: { load: async () => (await import('./templates.js')).registerTemplates },
};
const TRAILING: Modules = {
  pull: { load: async () => (await import('./pull.js')).registerPull },
  diff: { leaf: true, load: async () => (await import('./diff.js')).registerDiff },
  apply: { leaf: true, load: async () => (await import('./apply.js')).registerApply },
  history: { load: async () => (await import('./history.js')).registerHistory },
  undo: { leaf: true, load: async () => (await import('./undo.js')).registerUndo },
  mcp: { leaf: true, load: async () => (await import('./mcp.js')).registerMcp },
  api: { leaf: true, load: async () => (await import('./api.js')).registerApi },
  completion: { leaf: true, load: async () => (await import('./completion.js')).registerCompletion },
  version: { leaf: true, load: async () => (await import('./version.js')).registerVersion },
};

/** A plain collection: its words and columns from collections.ts, the rest from collection.ts. */
function collectionEntry(key: string, identity: ResourceIdentity & { cli: string }): Own {
  return {
    load: async () => {
      const [{ COLLECTIONS }, { addCollection }] = await Promise.all([import('./collections.js'), import('./collection.js')]);
      const command = (COLLECTIONS as Record<string, (typeof COLLECTIONS)[keyof typeof COLLECTIONS] | undefined>)[identity.cli];
      if (!command)
        throw new Error(`"${identity.cli}" has neither a command module (commands/index.ts) nor an entry in commands/collections.ts`);
      return (program) => addCollection(program, key, identity, command);
    },
  };
}

/** The API's resources in the catalog's order: a plain collection as the catalog says, else its own module. */
const apiCommands: [string, Own][] = Object.entries(CATALOG as Record<string, ResourceIdentity>).flatMap(([key, identity]) => {
  const { cli } = identity;
  if (cli === undefined || cli in LEADING) return [];
  if (identity.collection) return [[cli, collectionEntry(key, { ...identity, cli })]];
  const own = OWN_RESOURCES[cli as ResourceEntry['name']];
  if (!own)
    throw new TypeError(`"${cli}" is not a plain collection in the catalog and has no command module (commands/index.ts OWN_RESOURCES)`);
  return [[cli, own]];
});

const resources: ResourceEntry[] = [...Object.entries(LEADING), ...apiCommands, ...Object.entries(TRAILING)].map(([name, own]) => ({
  name: name as ResourceEntry['name'],
  ...(own as Own),
}));

/** Global options that take a value: their value is not the resource name. */
const VALUE_FLAGS = new Set(['--profile', '--base-url', '--token', '-w', '--workspace', '-o', '--output', '--timeout']);

/** The first two words of the command line that are not flags (`wsm -o json contacts list` -> contacts, list). */
function leadingOperands(argv: string[], count: number): string[] {
  const operands: string[] = [];
  for (let i = 0; i < argv.length && operands.length < count; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_FLAGS.has(arg)) i += 1;
      continue;
    }
    operands.push(arg);
  }
  return operands;
}

/**
 * `wsm help contacts list` as `wsm contacts list --help`: commander's help command reads only the
 * word after `help`, so a verb's help at any depth is asked for with the flag instead.
 */
export function helpAsFlag(argv: string[]): string[] {
  const operands = leadingOperands(argv, 2);
  if (operands[0] !== 'help' || operands.length < 2) return argv;
  const at = argv.indexOf('help');
  return [...argv.slice(0, at), ...argv.slice(at + 1), '--help'];
}

/** The resource the command line names (`wsm -o json contacts list` -> contacts; `wsm help users` -> users). */
function targetResource(argv: string[]): string | undefined {
  const operands = leadingOperands(argv, 2);
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/** The verb the command line names (`templates sync`), once declared: cli/timeout.ts asks whether it has its own --timeout. */
export function namedVerb(program: Command, argv: string[]): Command | undefined {
  const [resource, verb] = leadingOperands(argv, 2);
  return program.commands.find((c) => c.name() === resource)?.commands.find((c) => c.name() === verb);
}

/**
 * Declares the resources on `program`: in full the one the command line names (every resource
 * for `completion`, which prints the whole tree), the leaves when no command is named (the
 * top-level help), and the others as name + summary only, which is all the top-level help and
 * commander's "did you mean" need.
 */
export async function declareResources(program: Command, argv: string[]): Promise<void> {
  const target = targetResource(argv);
  // `completion` prints the whole tree; `__complete` (called by those scripts) reads it too.
  const everything = target === 'completion' || target === COMPLETE_COMMAND;
  const registers = await Promise.all(
    resources.map((entry) => (everything || (entry.leaf && target === undefined) || entry.name === target ? entry.load() : undefined)),
  );
  resources.forEach((entry, index) => {
    const register = registers[index];
    if (register) register(program, { target: entry.name === target });
    else program.command(entry.name).description(SUMMARIES[entry.name]);
  });
  if (target === COMPLETE_COMMAND) (await import('./completion.js')).registerCompleteValues(program);
}

/** The hidden command the completion scripts call for values (profiles, ids, permissions). */
const COMPLETE_COMMAND = '__complete';
