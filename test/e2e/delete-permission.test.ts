/**
 * A delete asks its question only after what the server can say first: where `wsm serve` says
 * (GET /me, per workspace) that the caller's role lacks the delete's permission, the real binary
 * on a real terminal asks nothing and exits 3 with one line; with the permission, or against the
 * stand-in of the hosted service (which cannot say), the question comes as before.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { seedStandinContact, type Backend, serveBackend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { cleanup, localProfile, loginWithRole } from './processes.js';
import { onTerminal, plainLines } from './terminal.js';

let server: Backend;
let owner: NodeJS.ProcessEnv;
let viewer: NodeJS.ProcessEnv;
let standin: Standin;
let standinDir: string;
let standinContact: number;

beforeAll(async () => {
  server = await serveBackend();
  for (const number of ['14155550101', '14155550102'])
    expect((await wsmInProcess(server.env, ['contacts', 'create', '--number', number])).code).toBe(0);
  expect((await wsmInProcess(server.env, ['labels', 'create', 'Keep'])).code).toBe(0);
  writeFileSync(join(server.dir, 'ids.txt'), '1\n2\n');
  // Dee may look at contacts and labels, and delete labels, but not contacts.
  await loginWithRole((args, input) => wsmInProcess(server.env, args, input), server.url, 'Viewer', ['contacts.view', 'labels.view']);
  // The login made `dee` the current profile: each side names its own.
  owner = { ...server.env, WSM_PROFILE: 'local' };
  viewer = { ...server.env, WSM_PROFILE: 'dee', WSM_WORKSPACE: localProfile(server).workspace };
  standin = await startStandin();
  standinContact = standin.state.nextId;
  seedStandinContact(standin, '14155550199', 'Stan');
  standinDir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
});

afterAll(async () => {
  if (standin) await standin.close();
  if (standinDir) cleanup(standinDir);
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

const contactsLeft = async () => JSON.parse((await wsmInProcess(owner, ['contacts', 'list', '-o', 'json'])).stdout).length;

describe('a role without the permission is told before any question', () => {
  it.each([
    [['contacts', 'delete', '1'], 'your role may not delete contacts (it lacks contacts.delete): nothing was changed'],
    [['contacts', 'delete', '--from', 'ids.txt'], 'your role may not delete contacts (it lacks contacts.delete): nothing was changed'],
    [['labels', 'delete', '1'], 'your role may not delete labels (it lacks labels.delete): nothing was changed'],
  ])('wsm %j: no question, exit 3, one line', async (args, line) => {
    // Were a question asked, `n` would answer it (exit 2); none is, so the keys are never typed.
    const { code, screen } = await onTerminal(viewer, args, { cwd: server.dir, keys: 'n\r', when: 'Delete' });
    expect({ code, lines: plainLines(screen) }).toEqual({ code: 3, lines: [`error: ${line}`] });
    expect(await contactsLeft()).toBe(2);
  });

  it('wsm apply --prune: the plan, then no question: exit 3 naming each permission the changes need', async () => {
    writeFileSync(join(server.dir, 'labels.yaml'), 'labels:\n  - name: Fresh\n');
    const { code, screen } = await onTerminal(viewer, ['apply', '-f', 'labels.yaml', '--prune'], {
      cwd: server.dir,
      keys: 'n\r',
      when: 'Apply',
    });
    const lines = plainLines(screen);
    expect(lines.join(' ')).toContain('Plan: 1 to create, 0 to update, 0 to replace, 1 to delete.');
    expect(lines.some((line) => line.includes('Apply'))).toBe(false);
    expect({ code, last: lines.at(-1) }).toEqual({
      code: 3,
      last: 'error: your role may not create labels (it lacks labels.create), delete labels (it lacks labels.delete): nothing was changed',
    });
    expect((await wsmInProcess(owner, ['labels', 'list', '-q'])).stdout).toBe('1\n');
  });

  it("the same delete with --yes gets the server's own 403, as before", async () => {
    const { code, screen } = await onTerminal(viewer, ['contacts', 'delete', '1', '--yes']);
    expect({ code, lines: plainLines(screen) }).toEqual({ code: 3, lines: ['error: your role may not delete contacts'] });
  });
});

describe('where the caller may delete, or the server cannot say, the question comes as before', () => {
  it('the owner on wsm serve is asked', async () => {
    const { code, screen } = await onTerminal(owner, ['contacts', 'delete', '1'], { keys: 'n\r', when: 'all its values', columns: 240 });
    expect(plainLines(screen).join(' ')).toMatch(/Delete contact .*wsm undo can make it again, with a new id and all its values/);
    expect({ code, last: plainLines(screen).at(-1) }).toEqual({ code: 2, last: 'error: cancelled' });
    expect(await contactsLeft()).toBe(2);
  });

  it('the stand-in of the hosted service (no /me) is asked, and the answer deletes', async () => {
    const env = standin.env(standinDir);
    const id = String(standinContact);
    const { code, screen } = await onTerminal(env, ['contacts', 'delete', id], { keys: 'y\r', when: 'all its values', columns: 240 });
    expect(plainLines(screen).join(' ')).toContain(`Delete contact ${id}? wsm undo can make it again`);
    expect({ code, last: plainLines(screen).at(-1) }).toEqual({ code: 0, last: `✓ deleted contact ${id}` });
    expect(standin.state.contacts.map((contact) => contact.id)).not.toContain(standinContact);
  });
});
