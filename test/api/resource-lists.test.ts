// Every list of resources written in src/ and the docs is one of the sets the catalog (and the
// workspace file's sections) make: a list that names three or more resources must name exactly one
// of them, so adding a resource fails here at each list that should now name it (and at a list
// that was already stale), in the file's own words.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_RESOURCES, CATALOG, type ResourceIdentity } from '../../src/api/descriptions/catalog.js';
import { SECTIONS } from '../../src/commands/workspace-file/sections.js';
import { COLLECTION_RULES } from '../../src/server/routes/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entries = Object.entries(CATALOG as Record<string, ResourceIdentity>);
const names = (pick: (key: string, identity: ResourceIdentity) => boolean) =>
  entries.filter(([key, identity]) => pick(key, identity)).map(([, identity]) => identity.cli ?? '');

/** A resource as prose and code name it: its command, or its key where the CLI has none. */
const WORD = new Map<string, string>([
  ...entries.map(([key, identity]) => [identity.cli ?? key, identity.cli ?? key] as const),
  ['workspaces', 'workspace'],
]);
const workspaceResources = names((_, identity) => identity.permissionGroup !== undefined);

/** The sets a list may name, each by what it is. */
const SETS: Record<string, string[]> = {
  'the plain collections': names((_, identity) => identity.collection === true),
  'the plain collections served from their description alone': names(
    (key, identity) => identity.collection === true && !(key in COLLECTION_RULES),
  ),
  "the workspace's resources": workspaceResources,
  "the workspace's resources and its permissions": [...workspaceResources, 'permissions'],
  'the workspaces and their resources': [...workspaceResources, 'workspace'],
  'the MCP toolsets of the API': [...workspaceResources, 'permissions', 'workspace'],
  "the workspace file's sections": Object.keys(SECTIONS),
};

/** Measurements of what was measured then, not statements of what the resources are. */
const RECORDS = ['docs/benchmarks.md'];

/** Lists that name resources for another reason than being one of the sets (each said why). */
const NOT_RESOURCE_LISTS = [
  'labels, groups, roles, users, workspaces', // decisions.md: the records with a required name
  'roles, users, contacts, ...', // architecture.md: examples
  'contacts, templates, users', // wsm's one-line description: "… and more"
  'contacts, groups, fields', // server code: the repositories the contact routes use
  'contacts, imports, roles, templates', // server code: the repositories that find a path's record
  'labels,\n  roles,\n  templates', // code: the sections themselves
  'Groups, fields, imports, labels, roles', // commands.md: the heading of the verbs alike
  'Users, permissions, workspace', // commands.md: a heading
];

/** A resource's word in a list: the command or the key of every resource an agent or a user works with, from the catalog. */
const RESOURCE_WORDS = [...new Set(AGENT_RESOURCES.flatMap((key) => [key, (CATALOG[key] as ResourceIdentity).cli ?? key]))];
const WORDS = `(?:contact |custom |CSV |message |WhatsApp message )?\`?(${RESOURCE_WORDS.join('|')})\`?`;
const LIST = new RegExp(`${WORDS}(?:(?:,\\s*|,?\\s+and\\s+)${WORDS}){2,}(?:,? \\.\\.\\.)?`, 'gi');

function listsIn(file: string): { line: number; text: string; words: string[] }[] {
  const text = readFileSync(`${root}${file}`, 'utf8');
  return [...text.matchAll(LIST)].map((match) => ({
    line: text.slice(0, match.index).split('\n').length,
    text: match[0],
    words: [...match[0].matchAll(new RegExp(WORDS, 'gi'))].map((word) => WORD.get(word[1].toLowerCase()) ?? word[1].toLowerCase()),
  }));
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((word) => b.includes(word));

describe('lists of resources in src/ and the docs', () => {
  it('each name exactly one of the sets the catalog makes', () => {
    const files = execFileSync('git', ['ls-files', 'src', 'docs', 'README.md'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '' && !RECORDS.includes(file));
    const stale: string[] = [];
    for (const file of files) {
      for (const list of listsIn(file)) {
        const words = [...new Set(list.words)];
        if (NOT_RESOURCE_LISTS.some((text) => list.text.includes(text))) continue;
        if (Object.values(SETS).some((set) => same(words, set))) continue;
        const nearest = Object.entries(SETS).sort(([, a], [, b]) => difference(words, a) - difference(words, b))[0];
        stale.push(`${file}:${list.line} lists ${words.join(', ')}; ${nearest[0]} are ${nearest[1].join(', ')}`);
      }
    }
    expect(stale).toEqual([]);
  });
});

function difference(a: string[], b: string[]): number {
  return a.filter((word) => !b.includes(word)).length + b.filter((word) => !a.includes(word)).length;
}
