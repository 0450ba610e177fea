/**
 * Issue 12, "Finding things" and "Editing" (points 9-11, 13): the real `wsm` binary against a
 * real `wsm serve`, a stand-in server without the extensions, and real shells for completion.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanup, serve, wsm, type Served } from './processes.js';
import { fakeServer, onTerminal, reply, sh } from './terminal.js';

let server: Served;
const run = (...args: string[]) => wsm(server.env, args);
const json = async (...args: string[]) => {
  const res = await run(...args, '-o', 'json');
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout);
};
let seeded: string;
let second: { id: string; name: string };

beforeAll(async () => {
  server = await serve(['--approval-delay', '0']);
  seeded = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).profiles.local.workspace;
  second = await json('workspace', 'create', 'Second brand');
  await run('groups', 'create', 'VIP');
  await run('groups', 'create', 'News');
  await run('groups', 'create', 'Leads');
  await run('contacts', 'create', '--number', '14155550101', '--name', 'Ann Lee', '--group', '1', '--group', '2');
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
  cleanup(server.dir);
});

describe('wsm workspace list | use (12.9)', () => {
  it('lists the workspaces of the token, the current one marked', async () => {
    const { stdout } = await run('workspace', 'list');
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([`\t${second.id}\tSecond brand`, `*\t${seeded}\tLocal workspace`].sort());
  });

  it('use by name switches the profile; commands then act there; use by id switches back', async () => {
    const res = await run('workspace', 'use', 'second BRAND');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`Now using workspace Second brand (${second.id}) in profile "local".\n`);
    expect((await json('workspace', 'get')).id).toBe(second.id);
    expect(await json('groups', 'list')).toEqual([]);
    expect((await run('workspace', 'use', seeded)).code).toBe(0);
    expect((await json('groups', 'list')).length).toBe(3);
  });

  it('an unknown name lists the workspaces there are (exit 2)', async () => {
    const res = await run('workspace', 'use', 'Nope');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('error: no workspace of yours is "Nope"; yours: ');
    expect(res.stderr).toContain(`Second brand (${second.id})`);
  });

  it('on a terminal, without a name, a picker offers them', async () => {
    const { code, screen } = await onTerminal(server.env, ['workspace', 'use'], { columns: 120, keys: '\x1b[B\r', when: 'Which workspace?' });
    expect(code).toBe(0);
    expect(screen).toContain(`Local workspace (${seeded}) - current`);
    expect(screen).toContain(`Now using workspace Second brand (${second.id})`);
    expect((await run('workspace', 'use', seeded)).code).toBe(0);
  });

  it('against a server without /me: one line saying so; a UUID is still accepted, checked with GET /workspaces/{id}', async () => {
    const bare = await fakeServer((req, res) => {
      if (req.url === `/api/v3/workspaces/${second.id}`) return reply(res, 200, { data: { id: second.id } });
      reply(res, 404, { message: 'Not Found' });
    });
    try {
      const env = { ...server.env, WSM_BASE_URL: bare.url, WSM_TOKEN: 'tok_12345678' };
      const list = await wsm(env, ['workspace', 'list']);
      expect(list.code).toBe(1);
      expect(list.stderr).toBe(
        'error: this server does not support listing your workspaces (it has no GET /me): pass the workspace id with -w <uuid> or `wsm profile set workspace <uuid>`\n',
      );
      const byName = await wsm(env, ['workspace', 'use', 'Second brand']);
      expect(byName.code).toBe(2);
      expect(byName.stderr.split('\n')).toHaveLength(2);
      expect((await wsm(env, ['workspace', 'use', second.id])).code).toBe(0);
    } finally {
      await bare.close();
      await run('workspace', 'use', seeded);
    }
  });
});

describe('completion knows values (12.10)', () => {
  /** What bash offers for the words typed so far (the last one being completed). */
  async function bashOffers(words: string[]): Promise<string[]> {
    const script = (await run('completion', 'bash')).stdout;
    const file = join(server.dir, 'wsm.bash');
    writeFileSync(file, script);
    // `wsm` on PATH is the real binary, as an installed one would be.
    const binDir = join(server.dir, 'bin');
    const shim = `mkdir -p ${sh(binDir)}; printf '#!/bin/sh\\nexec %s %s "$@"\\n' ${sh(process.execPath)} ${sh(BIN)} > ${sh(binDir)}/wsm; chmod +x ${sh(binDir)}/wsm`;
    const line = `${shim}; export PATH=${sh(binDir)}:$PATH; source ${sh(file)}; COMP_WORDS=(${words.map(sh).join(' ')}); COMP_CWORD=${words.length - 1}; _wsm; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', line], { env: server.env });
    return stdout.split('\n').filter(Boolean).sort();
  }

  it('profile names, enum values and -o formats', async () => {
    expect(await bashOffers(['wsm', 'profile', 'use', ''])).toEqual(['local']);
    expect(await bashOffers(['wsm', '--profile', 'lo'])).toEqual(['local']);
    expect(await bashOffers(['wsm', 'contacts', 'create', '--gender', ''])).toEqual(['female', 'male', 'other']);
    expect(await bashOffers(['wsm', 'templates', 'list', '--category', ''])).toEqual(['AUTHENTICATION', 'MARKETING', 'UTILITY']);
    expect(await bashOffers(['wsm', 'contacts', 'list', '-o', ''])).toEqual(['csv', 'json', 'ndjson', 'table']);
  });

  it('permission names and ids from the current workspace', async () => {
    const permissions = await bashOffers(['wsm', 'roles', 'create', 'agent', '--permission', 'contacts.']);
    expect(permissions).toEqual(['contacts.create', 'contacts.delete', 'contacts.update', 'contacts.view']);
    expect(await bashOffers(['wsm', 'groups', 'get', ''])).toEqual(['1', '2', '3']);
    expect(await bashOffers(['wsm', 'contacts', 'update', '1', '--add-group', ''])).toEqual(['1', '2', '3']);
  });

  it('ids come with their names for zsh and fish (`wsm __complete`), and a dead server offers nothing, quickly', async () => {
    expect((await run('__complete', 'ids', 'contacts')).stdout).toBe('1\tAnn Lee 14155550101\n');
    const started = Date.now();
    const dead = await wsm({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, ['__complete', 'ids', 'contacts']);
    expect(dead).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(Date.now() - started).toBeLessThan(5000);
    const fish = (await run('completion', 'fish')).stdout;
    expect(fish).toContain(`complete -c wsm -f -n '__fish_seen_subcommand_from contacts; and __fish_seen_subcommand_from get' -a '(wsm __complete ids contacts 2>/dev/null)'`);
  });
});

describe('contacts update without --name, --add-group/--remove-group (12.11)', () => {
  it('--inactive alone keeps the name and the groups', async () => {
    const updated = await json('contacts', 'update', '1', '--inactive');
    expect(updated).toMatchObject({ name: 'Ann Lee', status: false });
    expect(updated.contact_groups.map((g: { id: number }) => g.id)).toEqual([1, 2]);
  });

  it('--add-group and --remove-group edit the current groups; --group replaces them', async () => {
    const edited = await json('contacts', 'update', '1', '--add-group', '3', '--remove-group', '1');
    expect(edited.contact_groups.map((g: { id: number }) => g.id).sort()).toEqual([2, 3]);
    const replaced = await json('contacts', 'update', '1', '--group', '1');
    expect(replaced.contact_groups.map((g: { id: number }) => g.id)).toEqual([1]);
  });

  it('against a server without GET one contact: one line saying --name is needed', async () => {
    const bare = await fakeServer((_req, res) => reply(res, 404, { message: 'Not Found' }));
    try {
      const res = await wsm({ ...server.env, WSM_BASE_URL: bare.url }, ['contacts', 'update', '1', '--inactive']);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe('error: this server cannot read one contact, so wsm cannot keep what it holds: pass --name (the API requires the name on every update)\n');
    } finally {
      await bare.close();
    }
  });
});

describe('contacts export, then import (12.13)', () => {
  it('every contact attribute and custom field the export writes is read back by the import', async () => {
    await run('fields', 'create', 'city');
    await run('contacts', 'create', '--number', '14155550202', '--name', 'Lee, "Bo"', '--email', 'bo@example.com', '--gender', 'male', '--inactive', '--field', 'city=Porto');
    await run('contacts', 'create', '--number', '14155550203', '--name', 'Cy', '--field', 'city=Faro north');
    const file = join(server.dir, 'contacts.csv');
    const exported = await run('contacts', 'export');
    expect(exported.code).toBe(0);
    writeFileSync(file, exported.stdout);

    // Into an empty workspace that has the same contact field.
    const target = await json('workspace', 'create', 'Restore target');
    const inTarget = (...args: string[]) => wsm({ ...server.env, WSM_WORKSPACE: target.id }, args);
    expect((await inTarget('fields', 'create', 'city')).code).toBe(0);
    const imported = await inTarget('contacts', 'import', file, '--wait', '-o', 'json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ status: 'completed', created_count: 3, failed_count: 0 });

    const pick = ({ number, name, email, gender, status, fields }: Record<string, unknown>) => ({ number, name, email, gender, status, fields });
    const before = (await json('contacts', 'list', '--all')).map(pick);
    const after = JSON.parse((await inTarget('contacts', 'list', '--all', '-o', 'json')).stdout).map(pick);
    expect(after).toEqual(before);
  });
});
