/**
 * Every exit code of every waiting command with -o json: stdout holds one document, the error
 * document for every failure (a timed-out wait's with the last state it read inside) but the two
 * docs/output.md names, where the report is the document (7: templates rejected, 8: rows failed).
 * The real binary against a real `wsm serve`, and a stand-in whose import and templates never end
 * (the time-outs and Ctrl-C).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, createTemplateArgs, spawned, testEnv, type RunResult } from './processes.js';
import { FAILED_IMPORT, RUNNING_IMPORT, UNENDING_WORKSPACE, unendingServer, type UnendingServer } from './unending-server.js';

let server: Backend;
const dir = mkdtempSync(join(tmpdir(), 'wsm-wait-codes-'));
let never: UnendingServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  writeFileSync(join(dir, 'good.csv'), 'number,name\n14155550101,Ann\n');
  writeFileSync(join(dir, 'doomed.csv'), 'number,name\n14155550103,Cy\n');
  writeFileSync(join(dir, 'bad-row.csv'), 'number,name\n14155550102,Bo\n12,Bad\n');
  server = await serveBackend();
  for (const name of ['approve_me', 'reject_me']) {
    const made = await wsmInProcess(server.env, [...createTemplateArgs(name), '-q']);
    expect(made.code, made.stderr).toBe(0);
    ids[name] = made.stdout.trim();
  }
  never = await unendingServer();
});

afterAll(async () => {
  await never?.close();
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
  cleanup(dir);
});

type Target = 'serve' | 'never' | 'wrong token' | 'nothing listening';

function envOf(target: Target): NodeJS.ProcessEnv {
  if (target === 'serve') return server.env;
  if (target === 'wrong token') return { ...server.env, WSM_TOKEN: 'wrong' };
  if (target === 'never') return never.env(testEnv(dir));
  return { ...testEnv(dir), WSM_BASE_URL: 'http://127.0.0.1:9/api/v3', WSM_TOKEN: 'tok_wait_codes', WSM_WORKSPACE: UNENDING_WORKSPACE };
}

/** stdout is exactly one JSON document (JSON.parse refuses two), the error document, saying what stderr says. */
function errorDocument(res: RunResult, code: number): Record<string, unknown> {
  const doc = JSON.parse(res.stdout) as { error: Record<string, unknown> };
  expect(Object.keys(doc)).toEqual(['error']);
  expect(doc.error.exit_code).toBe(code);
  const lastLine = res.stderr.trimEnd().split('\n').at(-1);
  expect([`error: ${doc.error.message}`, `interrupted: ${doc.error.message}`]).toContain(lastLine);
  return doc.error;
}

const SYNC = (template: string) => ['templates', 'sync', '--wait', '--template', template, '--interval', '0.1s', '-o', 'json'];
const IMPORT = (file: string) => ['contacts', 'import', join(dir, file), '--wait', '--interval', '0.1s', '-o', 'json'];
const IMPORT_GET = (id: string) => ['imports', 'get', id, '--wait', '--interval', '0.1s', '-o', 'json'];

describe('templates sync --wait -o json', () => {
  it('0: the templates decided, their rows', async () => {
    const res = await wsmInProcess(envOf('serve'), SYNC(ids.approve_me));
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ name: 'approve_me', status: 'APPROVED' })]);
  });

  it.each<[number, Target, string[], Record<string, unknown>]>([
    [2, 'serve', [...SYNC('4'), '--timeout', 'soon'], {}],
    [3, 'wrong token', SYNC('4'), { status: 401 }],
    [4, 'serve', SYNC('999999'), { message: 'template 999999 not found' }],
    [6, 'nothing listening', [...SYNC('4'), '--timeout', '1s'], { message: expect.stringMatching(/^gave up after 1s: cannot reach /) }],
    [
      6,
      'never',
      [...SYNC('4'), '--timeout', '0.5s'],
      { message: 'timed out after 0.5s: still PENDING: order_update', state: [expect.objectContaining({ id: 4, status: 'PENDING' })] },
    ],
  ])('%i (%s): the error document', async (code, target, args, fields) => {
    const res = await wsmInProcess(envOf(target), args);
    expect(res.code, res.stderr).toBe(code);
    expect(errorDocument(res, code)).toMatchObject(fields);
  });

  it('7: a template rejected: the report is the document (docs/output.md)', async () => {
    const res = await wsmInProcess(envOf('serve'), [...SYNC(ids.reject_me), '--fail-on-rejected']);
    expect(res.code).toBe(7);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ name: 'reject_me', status: 'REJECTED' })]);
  });
});

describe('contacts import --wait -o json', () => {
  it('0: the import done, its record', async () => {
    const res = await wsmInProcess(envOf('serve'), IMPORT('good.csv'));
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'completed' });
    ids.done = String(JSON.parse(res.stdout).id);
  });

  it.each<[number, Target, string[], Record<string, unknown>]>([
    [1, 'never', IMPORT('doomed.csv'), { message: 'import 9 failed: The file has no number column.', state: FAILED_IMPORT }],
    [2, 'serve', [...IMPORT('good.csv'), '--interval', 'often'], {}],
    [3, 'wrong token', IMPORT('good.csv'), { status: 401 }],
    [6, 'nothing listening', IMPORT('good.csv'), { message: expect.stringMatching(/^cannot reach /) }],
    [
      6,
      'never',
      [...IMPORT('good.csv'), '--timeout', '0.5s'],
      { message: expect.stringMatching(/^timed out after 0.5s: import 8 still processing/), state: RUNNING_IMPORT },
    ],
  ])('%i (%s): the error document', async (code, target, args, fields) => {
    const res = await wsmInProcess(envOf(target), args);
    expect(res.code, res.stderr).toBe(code);
    expect(errorDocument(res, code)).toMatchObject(fields);
  });

  it('8: rows failed: the report is the document (docs/output.md)', async () => {
    const res = await wsmInProcess(envOf('serve'), IMPORT('bad-row.csv'));
    expect(res.code).toBe(8);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'completed', failed_count: 1 });
    ids.failedRows = String(JSON.parse(res.stdout).id);
  });
});

describe('imports get --wait -o json', () => {
  it('0: a finished import, its record', async () => {
    const res = await wsmInProcess(envOf('serve'), IMPORT_GET(ids.done));
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'completed' });
  });

  it.each<[number, Target, () => string[], Record<string, unknown>]>([
    [1, 'never', () => IMPORT_GET('9'), { message: 'import 9 failed: The file has no number column.', state: FAILED_IMPORT }],
    [2, 'serve', () => IMPORT_GET('abc'), {}],
    [3, 'wrong token', () => IMPORT_GET(ids.done), { status: 401 }],
    [4, 'serve', () => IMPORT_GET('999999'), { message: expect.stringMatching(/^no import 999999 in this workspace/) }],
    [
      6,
      'never',
      () => [...IMPORT_GET('8'), '--timeout', '0.5s'],
      { message: expect.stringMatching(/^timed out after 0.5s: import 8 still processing/), state: RUNNING_IMPORT },
    ],
  ])('%i (%s): the error document', async (code, target, args, fields) => {
    const res = await wsmInProcess(envOf(target), args());
    expect(res.code, res.stderr).toBe(code);
    expect(errorDocument(res, code)).toMatchObject(fields);
  });

  it('8: rows failed: the report is the document (docs/output.md)', async () => {
    const res = await wsmInProcess(envOf('serve'), IMPORT_GET(ids.failedRows));
    expect(res.code).toBe(8);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'completed', failed_count: 1 });
  });
});

describe('130: Ctrl-C during each wait, the error document', () => {
  it.each<[string, string[], string]>([
    ['templates sync --wait', SYNC('4'), '/templates/4'],
    ['contacts import --wait', IMPORT('good.csv'), '/contact-imports/8'],
    ['imports get --wait', IMPORT_GET('8'), '/contact-imports/8'],
  ])('%s', async (_name, args, polled) => {
    const before = never.requests(polled);
    const run = spawned(envOf('never'), args);
    await waitFor(() => never.requests(polled) >= before + 2);
    run.child.kill('SIGINT');
    expect(await run.code).toBe(130);
    expect(errorDocument({ code: 130, stdout: run.stdout(), stderr: run.stderr() }, 130).message).toMatch(
      /wsm (templates sync|imports get 8) --wait/,
    );
  });
});
