/**
 * A confirmation on a real terminal. A bulk delete asks as a single delete does,
 * saying what `wsm undo` can bring back; Ctrl-C at any question exits 130 like Ctrl-C anywhere else, and
 * nothing is deleted; the question comes before the first write. The real binary on a pseudo-terminal
 * against a real `wsm serve` and the stand-in.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup } from './processes.js';
import { startStandin } from '../standin/index.js';
import { seedStandinContact, type Backend, serveBackend } from './backends.js';
import { onTerminal, plainLines } from './terminal.js';

let server: Backend;

beforeAll(async () => {
  server = await serveBackend();
  for (const number of ['14155550101', '14155550102'])
    expect((await wsmInProcess(server.env, ['contacts', 'create', '--number', number])).code).toBe(0);
  expect((await wsmInProcess(server.env, ['labels', 'create', 'Keep'])).code).toBe(0);
  writeFileSync(join(server.dir, 'ids.txt'), '1\n2\n');
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('a question on a terminal', () => {
  it('a bulk delete says what wsm undo can bring back; Ctrl-C there is exit 130 and nothing is deleted', async () => {
    const { code, screen } = await onTerminal(server.env, ['contacts', 'delete', '--from', 'ids.txt'], {
      cwd: server.dir,
      keys: '\x03',
      when: 'all their values',
      columns: 240,
    });
    expect(plainLines(screen).join(' ').replace(/\s+/g, ' ')).toContain(
      'Delete all 2 contacts read from ids.txt? wsm undo can make them again, with new ids and all their values',
    );
    expect(screen).toContain('interrupted: nothing was done');
    expect(code).toBe(130);
    expect(JSON.parse((await wsmInProcess(server.env, ['contacts', 'list', '-o', 'json'])).stdout)).toHaveLength(2);
  });

  it('Ctrl-C at a single delete is 130 too; answering no is still exit 2 (cancelled)', async () => {
    const interrupted = await onTerminal(server.env, ['labels', 'delete', '1'], { keys: '\x03', when: 'with a new id' });
    expect(interrupted.code).toBe(130);
    expect(interrupted.screen).toContain('interrupted: nothing was done');
    const declined = await onTerminal(server.env, ['labels', 'delete', '1'], { keys: 'n\r', when: 'with a new id' });
    expect(declined.code).toBe(2);
    expect(declined.screen).toContain('error: cancelled');
    expect((await wsmInProcess(server.env, ['labels', 'get', '1'])).code).toBe(0);
  });

  it('a bulk delete asks before its first write: while the question is on screen the server has had no delete; yes deletes each once', async () => {
    const standin = await startStandin();
    const dir = mkdtempSync(join(tmpdir(), 'wsm-prompt-'));
    try {
      for (const [number, name] of [
        ['14155550201', 'Ann'],
        ['14155550202', 'Bob'],
      ])
        seedStandinContact(standin, number, name);
      const ids = standin.state.contacts.map((contact) => contact.id);
      writeFileSync(join(dir, 'ids.txt'), ids.join('\n') + '\n');
      const deletes = () => standin.requests.filter((request) => request.startsWith('DELETE '));
      let atQuestion: string[] | undefined;
      const { code, screen } = await onTerminal(standin.env(dir), ['contacts', 'delete', '--from', 'ids.txt'], {
        cwd: dir,
        keys: 'y\r',
        when: 'all their values',
        beforeKeys: () => (atQuestion = deletes()),
      });
      expect(code, screen).toBe(0);
      expect(atQuestion).toEqual([]);
      expect(deletes().sort()).toEqual(ids.map((id) => `DELETE /workspaces/${standin.workspace}/contacts/${id}`).sort());
      expect(screen).toContain('✓ deleted 2 of the 2 contacts read from ids.txt: 0 already gone, 0 failed');
    } finally {
      await standin.close();
      cleanup(dir);
    }
  });
});
