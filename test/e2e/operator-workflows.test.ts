/**
 * An operator finding things and editing them: wsm against a real `wsm serve` and
 * a stand-in server without the extensions; piped commands run in-process (in-process.ts), the
 * pickers run the real binary on real pseudo-terminals, completion the real binary in real shells.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { BIN, cleanup, localProfile } from './processes.js';
import { fakeServer, onTerminal, reply, sh } from './terminal.js';

let server: Backend;
const run = (...args: string[]) => wsmInProcess(server.env, args);
const json = async (...args: string[]) => {
  const res = await run(...args, '-o', 'json');
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout);
};
let seeded: string;
let second: { id: string; name: string };
const configOf = () => JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8'));
const localToken = () => localProfile(server).token;

beforeAll(async () => {
  server = await serveBackend();
  seeded = localProfile(server).workspace;
  second = await json('workspace', 'create', 'Second brand');
  await run('groups', 'create', 'VIP');
  await run('groups', 'create', 'News');
  await run('groups', 'create', 'Leads');
  await run('contacts', 'create', '--number', '14155550101', '--name', 'Ann Lee', '--group', '1', '--group', '2');
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('wsm workspace list | use (12.9)', () => {
  it('lists the workspaces of the token, the current one marked', async () => {
    const { stdout } = await run('workspace', 'list');
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([`\t${second.id}\tSecond brand`, `*\t${seeded}\tLocal workspace`].sort());
  });

  it('use by name switches the profile; commands then act there; use by id switches back', async () => {
    const res = await run('workspace', 'use', 'second BRAND');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`✓ now using workspace Second brand (${second.id}) in profile "local"\n`);
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
    const { code, screen } = await onTerminal(server.env, ['workspace', 'use'], {
      columns: 120,
      keys: '\x1b[B\r',
      when: 'Which workspace?',
    });
    expect(code).toBe(0);
    expect(screen).toContain(`Local workspace (${seeded}) - current`);
    expect(screen).toContain(`now using workspace Second brand (${second.id})`);
    expect((await run('workspace', 'use', seeded)).code).toBe(0);
  });

  it('against a server without /me: one line saying so; a UUID is still accepted, checked with GET /workspaces/{id}', async () => {
    const bare = await fakeServer((req, res) => {
      if (req.url === `/api/v3/workspaces/${second.id}`) return reply(res, 200, { data: { id: second.id } });
      reply(res, 404, { message: 'Not Found' });
    });
    try {
      const env = { ...server.env, WSM_BASE_URL: bare.url, WSM_TOKEN: 'tok_12345678' };
      const list = await wsmInProcess(env, ['workspace', 'list']);
      expect(list.code).toBe(1);
      expect(list.stderr).toBe(
        'error: this server does not support listing your workspaces (it has no GET /me): pass the workspace id with -w <uuid> or `wsm profile set workspace <uuid>`\n',
      );
      const byName = await wsmInProcess(env, ['workspace', 'use', 'Second brand']);
      expect(byName.code).toBe(2);
      expect(byName.stderr.split('\n')).toHaveLength(2);
      expect((await wsmInProcess(env, ['workspace', 'use', second.id])).code).toBe(0);
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
    expect(await bashOffers(['wsm', 'contacts', 'list', '-o', ''])).toEqual(['csv', 'json', 'ndjson', 'table', 'xlsx']);
  });

  it('permission names and ids from the current workspace', async () => {
    const permissions = await bashOffers(['wsm', 'roles', 'create', 'agent', '--permission', 'contacts.']);
    expect(permissions).toEqual(['contacts.create', 'contacts.delete', 'contacts.update', 'contacts.view']);
    expect(await bashOffers(['wsm', 'groups', 'get', ''])).toEqual(['1', '2', '3']);
    expect(await bashOffers(['wsm', 'contacts', 'update', '1', '--add-group', ''])).toEqual(['1', '2', '3']);
  });

  it('ids come with their names for zsh and fish (`wsm __complete`), and a dead server offers nothing', async () => {
    expect((await run('__complete', 'ids', 'contacts')).stdout).toBe('1\tAnn Lee 14155550101\n');
    const dead = await wsmInProcess({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, ['__complete', 'ids', 'contacts']);
    expect(dead).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const fish = (await run('completion', 'fish')).stdout;
    expect(fish).toContain(
      `complete -c wsm -f -n '__fish_seen_subcommand_from contacts; and __fish_seen_subcommand_from get' -a '(wsm __complete ids contacts 2>/dev/null)'`,
    );
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

  it('against a server without GET one contact: one line saying --name is needed, exit 1 as for any extension it lacks', async () => {
    // Like the published API: no route for it, and a request without a token is a 401 (the published API), so
    // the base URL is the API's and the missing route is the answer.
    const bare = await fakeServer((req, res) =>
      req.headers.authorization ? reply(res, 404, { message: 'Not Found' }) : reply(res, 401, { message: 'Unauthenticated.' }),
    );
    try {
      const res = await wsmInProcess({ ...server.env, WSM_BASE_URL: bare.url }, ['contacts', 'update', '1', '--inactive']);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        'error: this server does not support getting one contact: wsm cannot keep what the contact holds, so pass --name (the API requires the name on every update)\n',
      );
    } finally {
      await bare.close();
    }
  });
});

describe('auth login checks what it saves (12.9)', () => {
  it('on a terminal, a token reaching several workspaces and no -w: the picker offers them; the pick is saved', async () => {
    const env = { ...server.env, WSM_TOKEN: localToken() };
    const { code, screen } = await onTerminal(env, ['auth', 'login', '--profile', 'picked', '--base-url', server.url], {
      columns: 120,
      keys: '\x1b[B\r',
      when: 'Which workspace?',
    });
    expect(code).toBe(0);
    expect(screen).toContain(`Local workspace (${seeded})`);
    expect(screen).toContain(`Second brand (${second.id})`);
    expect(screen).toContain('(profile "picked", now current)');
    const picked = configOf().profiles.picked;
    expect(picked).toEqual({ base_url: server.url, token: localToken(), workspace: second.id });
    expect((await run('profile', 'use', 'local')).code).toBe(0);
  });

  it('a token reaching one workspace takes it; WSM_TOKEN is trimmed as a piped token is', async () => {
    // Rae is a member of the second workspace only.
    const role = await wsmInProcess({ ...server.env, WSM_WORKSPACE: second.id }, [
      'roles',
      'create',
      'Reader',
      '--permission',
      'contacts.view',
      '-q',
    ]);
    expect(role.code, role.stderr).toBe(0);
    const made = await wsmInProcess({ ...server.env, WSM_WORKSPACE: second.id }, [
      'users',
      'create',
      '--name',
      'Rae',
      '--email',
      'rae@example.com',
      '--password',
      'long password',
      '--role',
      role.stdout.trim(),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const answer = await fetch(`${server.url}/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rae@example.com', password: 'long password' }),
    });
    const token = ((await answer.json()) as { data: { token: string } }).data.token;

    const piped = await wsmInProcess(
      server.env,
      ['auth', 'login', '--profile', 'rae', '--base-url', server.url, '--with-token'],
      `${token}\n`,
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(configOf().profiles.rae).toEqual({ base_url: server.url, token, workspace: second.id });
    const fromEnv = await wsmInProcess({ ...server.env, WSM_TOKEN: `  ${token}\r\n` }, [
      'auth',
      'login',
      '--profile',
      'rae-env',
      '--base-url',
      server.url,
    ]);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(configOf().profiles['rae-env']).toEqual({ base_url: server.url, token, workspace: second.id });
    expect((await run('profile', 'use', 'local')).code).toBe(0);
  });

  it('a base URL without /api/v3: says it does not answer like the API and which URL does, saves nothing, keeps the current profile; exit 4', async () => {
    const bare = server.url.replace(/\/api\/v3$/, '');
    const before = readFileSync(join(server.dir, 'config', 'config.json'), 'utf8');
    const res = await wsmInProcess(server.env, ['auth', 'login', '--profile', 'broken', '--base-url', bare, '--with-token'], localToken());
    expect(res.code).toBe(4);
    const said = `error: ${bare} (from --base-url) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${server.url} does: run \`wsm auth login --base-url ${server.url} --profile broken\` (nothing was saved)\n`;
    expect(res.stderr).toBe(said);
    const withWorkspace = await wsmInProcess(
      server.env,
      ['auth', 'login', '--profile', 'broken', '--base-url', bare, '--with-token', '-w', seeded],
      localToken(),
    );
    expect(withWorkspace.code).toBe(4);
    expect(withWorkspace.stderr).toBe(said.replace('--profile broken', `--profile broken -w ${seeded}`));
    expect(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).toBe(before);
    expect(configOf().current).toBe('local');
  });

  it('auth status takes --json and --jq like every get', async () => {
    const selected = await run('auth', 'status', '--json', 'profile,workspace');
    expect(selected.code, selected.stderr).toBe(0);
    expect(JSON.parse(selected.stdout)).toEqual({ profile: 'local', workspace: seeded });
    expect((await run('auth', 'status', '--jq', '.workspace')).stdout).toBe(`${seeded}\n`);
    const unknown = await run('auth', 'status', '--json', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: unknown field "nope" for --json; available: profile, base_url, workspace, user, token, token_source\n',
    );
  });
});

describe('contacts export, then import: every field, groups and line breaks included (12.13, 21)', () => {
  const AWKWARD = 'Friends, "close"; [family]';
  const pick = (c: Record<string, unknown>) => ({
    number: c.number,
    name: c.name,
    email: c.email,
    gender: c.gender,
    status: c.status,
    fields: c.fields,
    groups: (c.contact_groups as Array<{ name: string }>).map((g) => g.name).sort(),
  });
  const byNumber = (a: { number: unknown }, b: { number: unknown }) => String(a.number).localeCompare(String(b.number));
  let file: string;
  let exported: ReturnType<typeof pick>[];

  beforeAll(async () => {
    const awkward = (await json('groups', 'create', AWKWARD)).id;
    expect((await run('fields', 'create', 'city')).code).toBe(0);
    await json(
      'contacts',
      'create',
      '--number',
      '14155550202',
      '--name',
      'Lee, "Bo"',
      '--email',
      'bo@example.com',
      '--gender',
      'male',
      '--inactive',
      '--field',
      'city=Porto',
      '--group',
      '3',
      '--group',
      String(awkward),
    );
    await json(
      'contacts',
      'create',
      '--number',
      '14155550203',
      '--name',
      'Cy',
      '--gender',
      'other',
      '--field',
      'city=Faro north',
      '--group',
      '1',
    );
    await json('contacts', 'create', '--number', '14155550204', '--name', '=1+1', '--email', 'formula@example.com', '--field', 'city=-2');
    await json('contacts', 'create', '--number', '14155550205', '--name', 'Two\nlines');
    const all = (await json('contacts', 'list', '--all')) as Array<Record<string, unknown>>;
    exported = all.map(pick).sort(byNumber);
    expect(exported).toHaveLength(5);
  });

  it('export writes groups as JSON names, neutralises formulas, quotes a line break (RFC 4180), and warns about nothing', async () => {
    const res = await run('contacts', 'export');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    file = join(server.dir, 'contacts.csv');
    writeFileSync(file, res.stdout);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('id,number,name,email,gender,status,contact_groups,created_at,updated_at,city');
    expect(lines.find((l) => l.includes('14155550202'))).toContain(',false,"[""Leads"",""Friends, \\""close\\""; [family]""]",');
    expect(lines.find((l) => l.includes('14155550204'))).toMatch(/^\d+,14155550204,'=1\+1,formula@example\.com,,true,\[\],.*,'-2$/);
    // Valid RFC 4180 for spreadsheets: the value keeps its line break, quoted.
    expect(res.stdout).toContain(',"Two\nlines",');
  });

  async function importInto(env: NodeJS.ProcessEnv) {
    const res = await wsmInProcess(env, ['contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('warning');
    const done = JSON.parse(res.stdout);
    expect(done).toMatchObject({ status: 'completed', created_count: 5, updated_count: 0, failed_count: 0 });
    return done as { errors: Array<{ row: number; message: string }> };
  }

  it('into the same workspace after deleting the contacts: every field and group comes back', async () => {
    const ids = (await run('contacts', 'list', '--all', '-q')).stdout;
    expect((await wsmInProcess(server.env, ['contacts', 'delete', '--from', '-', '--yes'], ids)).code).toBe(0);
    expect(await json('contacts', 'list', '--all')).toEqual([]);
    const done = await importInto(server.env);
    expect(done.errors.filter((e) => e.message.includes('was created'))).toEqual([]);
    const restored = ((await json('contacts', 'list', '--all')) as Array<Record<string, unknown>>).map(pick).sort(byNumber);
    expect(restored).toEqual(exported);
    expect(restored.find((c) => c.number === '14155550204')).toMatchObject({ name: '=1+1', fields: { city: '-2' } });
    expect(((await json('groups', 'list', '--all')) as unknown[]).length).toBe(4);
  });

  it("the operator's case: a note over three lines, holding a phone and a name, exports and imports back as it was (exit 0)", async () => {
    const target = await json('workspace', 'create', 'Bob and Hal');
    const env = { ...server.env, WSM_WORKSPACE: target.id };
    const use = (...args: string[]) => wsmInProcess(env, args);
    expect((await use('fields', 'create', 'note')).code).toBe(0);
    const note = 'Emergency contacts:\nwife, 415 555 0202, Robin\n(call after 6pm)';
    expect((await use('contacts', 'create', '--number', '4155550202', '--name', 'Bob', '--field', `note=${note}`)).code).toBe(0);
    expect((await use('contacts', 'create', '--number', '4155550303', '--name', 'Hal', '--field', `note=${note}`)).code).toBe(0);
    const before = (JSON.parse((await use('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<Record<string, unknown>>).map(pick);
    const exported = await use('contacts', 'export');
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    const backup = join(server.dir, 'bob-hal.csv');
    writeFileSync(backup, exported.stdout);
    const imported = await use('contacts', 'import', backup, '--wait', '--interval', '0.1s', '-o', 'json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      status: 'completed',
      total_rows: 2,
      created_count: 0,
      updated_count: 2,
      failed_count: 0,
    });
    const after = (JSON.parse((await use('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<Record<string, unknown>>).map(pick);
    expect(after).toEqual(before);
    expect(after.map((c) => [c.name, c.fields])).toEqual([
      ['Bob', { note }],
      ['Hal', { note }],
    ]);
  });

  it('into a fresh workspace: the groups are created (and named in the import), every field comes back', async () => {
    const target = await json('workspace', 'create', 'Restore target');
    const env = { ...server.env, WSM_WORKSPACE: target.id };
    expect((await wsmInProcess(env, ['fields', 'create', 'city'])).code).toBe(0);
    const done = await importInto(env);
    const created = done.errors.filter((e) => e.message.includes('was created')).map((e) => e.message.replace(/ \(id \d+\)\.$/, ''));
    expect(created.sort()).toEqual(
      [
        `The contact group "${AWKWARD}" did not exist and was created`,
        'The contact group "Leads" did not exist and was created',
        'The contact group "VIP" did not exist and was created',
      ].sort(),
    );
    const restored = (
      JSON.parse((await wsmInProcess(env, ['contacts', 'list', '--all', '-o', 'json'])).stdout) as Array<Record<string, unknown>>
    )
      .map(pick)
      .sort(byNumber);
    expect(restored).toEqual(exported);
  });

  it('contacts update --from reads the same format: groups by name, set as given; an unknown name sends nothing (exit 2)', async () => {
    const bo = ((await json('contacts', 'list', '--search', '14155550202')) as Array<{ id: number }>)[0];
    const changes = join(server.dir, 'changes.csv');
    // The cell as a spreadsheet or script would write it: JSON, then CSV-quoted.
    const cell = `"${JSON.stringify(['VIP', AWKWARD]).replaceAll('"', '""')}"`;
    writeFileSync(changes, `id,name,contact_groups\n${bo.id},Bo Lee,${cell}\n`);
    const res = await run('contacts', 'update', '--from', changes);
    expect(res.code, res.stderr).toBe(0);
    const after = await json('contacts', 'get', String(bo.id));
    expect(after.name).toBe('Bo Lee');
    expect(after.contact_groups.map((g: { name: string }) => g.name).sort()).toEqual([AWKWARD, 'VIP'].sort());

    writeFileSync(changes, `id,name,contact_groups\n${bo.id},Bo,"[""Nope""]"\n`);
    const refused = await run('contacts', 'update', '--from', changes);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error: ${changes} names contact groups this workspace does not have: nothing was sent\n  line 2 contact_groups: No contact group is named "Nope" (\`wsm groups create\` makes one).\n`,
    );
  });
});
