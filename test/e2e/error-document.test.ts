/**
 * With -o json (and ndjson) every failure prints one JSON document on stdout,
 * whoever failed: `{"error": {message, exit_code, status?, fields?, server?}}`, its message
 * stderr's sentence and its exit_code the process's. The real binary against a real `wsm serve`,
 * one run per exit code; 130 against a stand-in import that never ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, serveBackend } from './backends.js';
import { BIN, cleanup, testEnv, wsm } from './processes.js';
import { fakeServer, reply } from './terminal.js';

let server: Backend;
let dir: string;
const run = (args: string[], env: NodeJS.ProcessEnv = server.env) => wsm(env, args);

/** stdout holds exactly one JSON document (JSON.parse refuses two), and it is the error document. */
function errorDocument(stdout: string): { error: Record<string, unknown> } {
  const doc = JSON.parse(stdout) as { error: Record<string, unknown> };
  expect(Object.keys(doc)).toEqual(['error']);
  return doc;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-error-document-'));
  server = await serveBackend();
  expect((await run(['groups', 'create', 'VIP'])).code).toBe(0);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
  cleanup(dir);
});

describe('one error document for every exit code (-o json and ndjson)', () => {
  it('1: a failure of no other kind (wsm diff recodes a missing file to 1)', async () => {
    const res = await run(['diff', '-f', join(dir, 'missing.yaml'), '-o', 'json']);
    expect(res.code).toBe(1);
    const doc = errorDocument(res.stdout);
    expect(doc.error).toEqual({ message: expect.stringMatching(/^cannot read .*missing\.yaml/), exit_code: 1 });
    expect(res.stderr).toBe(`error: ${doc.error.message as string}\n`);
  });

  it('2: a usage error, nothing sent', async () => {
    const res = await run(['contacts', 'get', 'abc', '-o', 'ndjson']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('{"error":{"message":"contact id must be a positive integer, got \\"abc\\"","exit_code":2}}\n');
    expect(res.stderr).toBe('error: contact id must be a positive integer, got "abc"\n');
  });

  it('2: a local check names its fields', async () => {
    const res = await run(['contacts', 'create', '--number', '12', '-o', 'json']);
    expect(res.code).toBe(2);
    expect(errorDocument(res.stdout).error).toEqual({
      message: 'the contact is invalid: nothing was sent',
      exit_code: 2,
      fields: { number: ['The number must be a phone number of 7 to 15 digits.'] },
    });
  });

  it('3: a token the server rejects, with the status and the server body', async () => {
    const res = await run(['contacts', 'list', '-o', 'json'], { ...server.env, WSM_TOKEN: 'wrong' });
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('error: the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>\n');
    expect(errorDocument(res.stdout)).toEqual({
      error: {
        message: 'the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>',
        exit_code: 3,
        status: 401,
        server: { message: 'Unauthenticated.' },
      },
    });
  });

  it('4: not found says what stderr says, not the server body', async () => {
    const res = await run(['contacts', 'get', '999999', '-o', 'json']);
    expect(res.code).toBe(4);
    expect(res.stderr).toBe('error: contact 999999 not found\n');
    expect(errorDocument(res.stdout)).toEqual({
      error: { message: 'contact 999999 not found', exit_code: 4, status: 404, server: { message: 'Resource not found.', status: 404 } },
    });
  });

  it('5: the server rejected the input: its field errors and its body', async () => {
    const res = await run(['groups', 'create', 'VIP', '-o', 'json']);
    expect(res.code).toBe(5);
    const doc = errorDocument(res.stdout);
    expect(doc.error).toMatchObject({
      message: 'the server rejected the group:',
      exit_code: 5,
      status: 422,
      fields: { name: [expect.any(String)] },
    });
    expect((doc.error.server as { errors: unknown }).errors).toEqual(doc.error.fields);
  });

  it('6: no server there', async () => {
    const res = await run(['contacts', 'list', '-o', 'json'], { ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' });
    expect(res.code).toBe(6);
    expect(errorDocument(res.stdout)).toEqual({
      error: {
        message: 'cannot reach http://127.0.0.1:9/api/v3 (connection refused): no server is listening there; start one with `wsm serve`',
        exit_code: 6,
      },
    });
  });

  it('7: a template rejected: the report is the one document on stdout, the sentence on stderr', async () => {
    const made = await run([
      'templates',
      'create',
      '--name',
      'reject_me',
      '--language',
      'en',
      '--category',
      'UTILITY',
      '--body',
      'Your order shipped.',
      '-q',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const res = await run([
      'templates',
      'sync',
      '--wait',
      '--fail-on-rejected',
      '--template',
      made.stdout.trim(),
      '--interval',
      '0.1s',
      '-o',
      'json',
    ]);
    expect(res.code).toBe(7);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ name: 'reject_me', status: 'REJECTED' })]);
    expect(res.stderr).toMatch(/^error: 1 template was REJECTED: reject_me \(.+\)\n$/m);
  });

  it('8: rows of an import failed: the report is the one document on stdout', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'number,name\n14155550101,Ann\n12,Bad\n');
    const res = await run(['contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json']);
    expect(res.code).toBe(8);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'completed', errors: [expect.objectContaining({ row: 3 })] });
    expect(res.stderr).toMatch(/^error: import \d+: 1 of 2 rows failed \(`wsm imports errors \d+` lists them\)\n$/m);
  });

  it('130: Ctrl-C during a wait', async () => {
    const WS = '5f0e2b1c-3d4a-4e5f-8a9b-0c1d2e3f4a5b';
    let polls = 0;
    const standin = await fakeServer((req, res) => {
      if (req.url === `/api/v3/workspaces/${WS}/contact-imports/8`) {
        polls++;
        return reply(res, 200, { data: { id: 8, name: 'people.csv', status: 'processing', total_rows: 2, processed_rows: 0 } });
      }
      reply(res, 404, { message: 'Resource not found.', status: 404 });
    });
    try {
      const env = { ...testEnv(dir), WSM_BASE_URL: standin.url, WSM_TOKEN: 'tok_error_document', WSM_WORKSPACE: WS };
      const child = spawn(process.execPath, [BIN, 'imports', 'get', '8', '--wait', '--interval', '0.1s', '-o', 'json'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = new Promise<number | null>((resolve) => child.on('close', resolve));
      while (polls < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGINT');
      expect(await code).toBe(130);
      expect(errorDocument(stdout)).toEqual({
        error: { message: 'import 8 keeps running on the server: `wsm imports get 8 --wait`', exit_code: 130 },
      });
      expect(stderr).toBe('interrupted: import 8 keeps running on the server: `wsm imports get 8 --wait`\n');
    } finally {
      await standin.close();
    }
  });

  it('templates sync -o json with nothing pending: exit 0 and an outcome that says so, no server envelope', async () => {
    const res = await run(['templates', 'sync', '-o', 'json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ outcome: 'nothing_pending', message: 'No template is PENDING: nothing to sync.' });
  });

  it('docs/output.md shows an example for every exit code', () => {
    const page = readFileSync(join(import.meta.dirname, '../../docs/output.md'), 'utf8');
    const section = page.slice(page.indexOf('## The error document'));
    for (const code of [1, 2, 3, 4, 5, 6, 7, 8, 130])
      expect(section, `exit ${code}`).toMatch(new RegExp(`"exit_code": ?${code}\\b|exit ${code}\\b`));
  });
});
