/**
 * `wsm undo` asks its question only after what the server can say first: where `wsm serve` says
 * (GET /me) that the caller's role lacks a permission the undo's requests need (deleting the
 * contacts an import created needs contacts.delete), the real binary on a real terminal shows the
 * undo's plan, asks nothing and exits 3 with one line, nothing sent; with the permission, or
 * against the stand-in of the hosted service (which cannot say), the question comes as before.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { loginWithRole } from './role-login.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';
import { binaryFirstRunner } from './in-process.js';
import { onTerminal, plainLines } from './terminal.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

let server: Backend;
let owner: NodeJS.ProcessEnv;
let editor: NodeJS.ProcessEnv;
let importChange: string;

const numbers = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await wsm(env, ['contacts', 'list', '--all', '-o', 'json'])).stdout) as Array<{ number: string }>)
    .map((contact) => contact.number)
    .sort();
const lastChange = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await wsm(env, ['history', '-o', 'json'])).stdout) as Array<{ id: string }>)[0].id;

beforeAll(async () => {
  server = await serveBackend();
  owner = { ...server.env, WSM_PROFILE: 'local' };
  writeFileSync(join(server.dir, 'people.csv'), 'number,name\n14155550101,Ann\n14155550102,Ben\n');
  const imported = await wsm(owner, ['contacts', 'import', join(server.dir, 'people.csv'), '--wait']);
  expect(imported.code, imported.stderr).toBe(0);
  importChange = await lastChange(owner);
  // Dee may look at contacts and change them, but not delete them.
  editor = await loginWithRole(server, 'Editor', ['contacts.view', 'contacts.update']);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('wsm undo on a terminal, permission first', () => {
  it('a role without contacts.delete: the plan, then no question: exit 3 with one line, nothing sent', async () => {
    const { code, screen } = await onTerminal(editor, ['undo', importChange], {
      cwd: server.dir,
      keys: 'y\r',
      when: 'Send the',
      columns: 120,
    });
    const lines = plainLines(screen);
    expect(lines.join(' ')).toContain('- record 1: delete contact 1 (14155550101) Plan: 2 to delete, 0 already gone.');
    expect(lines.some((line) => line.includes('Send the'))).toBe(false);
    expect({ code, last: lines.at(-1) }).toEqual({
      code: 3,
      last: 'error: your role may not delete contacts (it lacks contacts.delete): nothing was changed',
    });
    expect(await numbers(owner)).toEqual(['14155550101', '14155550102']);
  });

  it('the owner, who may delete, is asked as before; the answer undoes the import', async () => {
    const { code, screen } = await onTerminal(owner, ['undo', importChange], {
      cwd: server.dir,
      keys: 'y\r',
      when: 'Send the',
      columns: 120,
    });
    expect(plainLines(screen).join(' ')).toContain(`Send the 2 requests undoing change ${importChange}`);
    expect({ code, last: plainLines(screen).at(-1) }).toEqual({
      code: 0,
      last: `✓ undid change ${importChange}: 0 set back, 2 deleted, 0 created again, 0 failed`,
    });
    expect(await numbers(owner)).toEqual([]);
  });
});

describe('a server that cannot say (the stand-in of the hosted service, no /me)', () => {
  let standin: Standin;
  let dir: string;
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-undo-permission-'));
  });
  afterAll(async () => {
    await standin?.close();
    if (dir) cleanup(dir);
  });

  it('is asked, and the answer undoes the change', async () => {
    const env = standin.env(dir);
    expect((await wsm(env, ['contacts', 'create', '--number', '14155550199', '--name', 'Stan'])).code).toBe(0);
    const change = await lastChange(env);
    const { code, screen } = await onTerminal(env, ['undo', change], { cwd: dir, keys: 'y\r', when: 'Send the', columns: 120 });
    expect(plainLines(screen).join(' ')).toContain(`Send the 1 request undoing change ${change}`);
    expect({ code, last: plainLines(screen).at(-1) }).toEqual({
      code: 0,
      last: `✓ undid change ${change}: 0 set back, 1 deleted, 0 created again, 0 failed`,
    });
    expect(standin.state.contacts).toEqual([]);
  });
});
