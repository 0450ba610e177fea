/**
 * What a delete's question says an undo can do, on a terminal with the real binary: `wsm undo`
 * makes a label, a contact field or a contact again (with a new id), and with WSM_HISTORY=off
 * nothing can be undone (a template's question, final at the provider: operator-terminal.test.ts). On `wsm serve` and on the stand-in of the
 * published API. Each question is answered no: nothing is deleted. Set-up and read-backs run
 * in-process (in-process.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';
import { onTerminal } from './terminal.js';

/** The screen as read: colour and cursor codes dropped, every run of white space one space. */
const read = (screen: string) => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' ');

/** Asks `wsm <args>` on a terminal, answers no; the question as read, and the exit code. */
async function asked(env: NodeJS.ProcessEnv, args: string[], cwd?: string) {
  const { code, screen } = await onTerminal(env, args, { columns: 240, keys: 'n\r', when: '?', cwd });
  return { code, question: read(screen) };
}

describe('delete questions on wsm serve', () => {
  let server: Backend;
  const json = async (...args: string[]) => JSON.parse((await wsmInProcess(server.env, [...args, '-o', 'json'])).stdout);
  beforeAll(async () => {
    server = await serveBackend();
  });
  afterAll(async () => {
    if (server) await server.stop();
    if (server) cleanup(server.dir);
  });

  it('a label, a contact: wsm undo can make it again; WSM_HISTORY=off: it cannot be undone', async () => {
    const label = await json('labels', 'create', 'Asked');
    const res = await asked(server.env, ['labels', 'delete', String(label.id)]);
    expect(res.question).toContain(`Delete label Asked (id ${label.id})? wsm undo can make it again, with a new id `);
    expect(res.code).toBe(2);
    const contact = await json('contacts', 'create', '--number', '14155550170', '--name', 'Asked');
    const one = await asked(server.env, ['contacts', 'delete', String(contact.id)]);
    expect(one.question).toContain('? wsm undo can make it again, with a new id and all its values ');
    const off = await asked({ ...server.env, WSM_HISTORY: 'off' }, ['contacts', 'delete', String(contact.id)]);
    expect(off.question).toContain('? This cannot be undone (WSM_HISTORY=off keeps no journal) ');
    expect(off.question).not.toContain('wsm undo can');
    expect((await wsmInProcess(server.env, ['contacts', 'get', String(contact.id)])).code).toBe(0);
  });
});

describe('delete questions on the stand-in of the published API', () => {
  let standin: Standin;
  let dir: string;
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-asked-'));
  });
  afterAll(async () => {
    if (standin) await standin.close();
    if (dir) cleanup(dir);
  });

  it('a contact field: made again without its values; many contacts: made again with theirs', async () => {
    const env = standin.env(dir);
    const field = JSON.parse((await wsmInProcess(env, ['fields', 'create', 'asked', '-o', 'json'])).stdout);
    const res = await asked(env, ['fields', 'delete', String(field.id)]);
    expect(res.question).toContain("? wsm undo can make it again, with a new id (the contacts' values of the field are not put back) ");
    const ids: number[] = [];
    for (const number of ['14155550171', '14155550172'])
      ids.push(JSON.parse((await wsmInProcess(env, ['contacts', 'create', '--number', number, '-o', 'json'])).stdout).id);
    writeFileSync(join(dir, 'ids.txt'), `${ids.join('\n')}\n`);
    const many = await asked(env, ['contacts', 'delete', '--from', 'ids.txt'], dir);
    expect(many.question).toContain(
      'Delete all 2 contacts read from ids.txt? wsm undo can make them again, with new ids and all their values ',
    );
    expect(many.code).toBe(2);
    expect(standin.state.contacts.filter((contact) => ids.includes(contact.id as number)).length).toBe(2);
  });
});
