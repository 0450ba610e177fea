import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';
import { JSON_HEADERS, WSP, contact, setupApi, type Api } from './harness.js';

const VERBS: Record<string, string[]> = {
  workspace: ['get', 'list', 'use', 'create'],
  permissions: ['list', 'set'],
  contacts: ['list', 'get', 'create', 'update', 'delete', 'import', 'export'],
  groups: ['list', 'get', 'create', 'update', 'delete'],
  fields: ['list', 'get', 'create', 'update', 'delete'],
  imports: ['list', 'get', 'errors', 'create', 'delete'],
  labels: ['list', 'get', 'create', 'update', 'delete'],
  roles: ['list', 'get', 'create', 'update', 'delete'],
  users: ['list', 'get', 'create', 'update'],
  templates: ['list', 'get', 'create', 'delete', 'sync', 'validate'],
};

describe('help', () => {
  it.each(Object.entries(VERBS).flatMap(([resource, verbs]) => verbs.map((verb) => [resource, verb])))(
    'wsm %s %s --help has examples of itself',
    async (resource, verb) => {
      const { code, stdout } = await runCli([resource, verb, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`Examples:\n  $ wsm ${resource} ${verb}`);
    },
  );

  it.each([['api'], ['completion'], ['version']])('wsm %s --help has examples', async (command) => {
    const { code, stdout } = await runCli([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Examples:\n  $ `);
  });

  it('each resource lists exactly its verbs', async () => {
    for (const [resource, verbs] of Object.entries(VERBS)) {
      const { stdout } = await runCli([resource, '--help']);
      const listed = [...stdout.split('Commands:')[1].matchAll(/^  (\w+)/gm)].map((m) => m[1]).filter((v) => v !== 'help');
      expect(listed.sort(), resource).toEqual([...verbs].sort());
    }
  });
});

describe('a single record on a terminal', () => {
  let api: Api;
  beforeEach(async () => (api = await setupApi()));
  afterEach(() => api?.close());

  it('prints aligned label/value lines that wrap instead of being cut, no colour with --no-color', async () => {
    const name = 'Ann ' + 'A'.repeat(40) + ' ' + 'B'.repeat(40);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7, { name }) }, JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'get', '7', '--no-color'], { stdoutTTY: true, columns: 60 });
    expect(code).toBe(0);
    expect(stdout).toContain('ID       7\nNumber   14155550007\n');
    // 60 columns, 9 for the label: the name goes on under itself, every character kept.
    expect(stdout).toContain(`Name     Ann ${'A'.repeat(40)}\n         ${'B'.repeat(40)}\n`);
    expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(60);
    expect(stdout).not.toContain('\x1b[');
  });
});
