/**
 * Long waits: the real `wsm` binary, given a real SIGINT (piped, or
 * Ctrl-C typed on a real pseudo-terminal; the waits without a signal and the set-up run
 * in-process, in-process.ts), against `wsm serve`, the stand-in for the hosted
 * service (no GET one import) and small stand-in servers for what neither does (an import that
 * never ends, a poll that hangs, counters that advance on cue).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { startStandin, type Standin } from '../standin/index.js';
import { BIN, cleanup, createTemplateArgs, serve, testEnv, type Served } from './processes.js';
import { fakeServer, onTerminal, reply, type FakeServer } from './terminal.js';

const WORKSPACE = '5f0e2b1c-3d4a-4e5f-8a9b-0c1d2e3f4a5b';
let dir: string;
let file: string;

// Its provider reviews for a minute: templates stay PENDING while a test waits on them. One server
// for the file; each test works in a workspace of its own (slowWorkspace).
let slow: Served;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-waits-'));
  file = join(dir, 'people.csv');
  writeFileSync(file, 'number,name\n14155550101,Ann\n14155550102,Bo\n');
  slow = await serve(['--approval-delay', '60s']);
});
afterAll(async () => {
  if (slow) expect(await slow.stop()).toBe(0);
  if (slow) cleanup(slow.dir);
  cleanup(dir);
});

/** The slow server's environment, bound to a new workspace of its own. */
async function slowWorkspace(name: string): Promise<NodeJS.ProcessEnv> {
  const made = await wsmInProcess(slow.env, ['workspace', 'create', name, '-o', 'json']);
  expect(made.code, made.stderr).toBe(0);
  return { ...slow.env, WSM_WORKSPACE: JSON.parse(made.stdout).id };
}

/** The import record a stand-in answers with. */
const importRecord = (fields: Record<string, unknown>) => ({
  id: 8,
  name: 'people.csv',
  status: 'pending',
  total_rows: 0,
  processed_rows: 0,
  ...fields,
});

/**
 * A server whose import 8 is answered by `poll(n)` on the n-th GET (0-based); a `poll` returning
 * undefined never answers that request (a server that hangs).
 */
async function importServer(
  poll: (n: number) => Record<string, unknown> | undefined,
): Promise<FakeServer & { polls: () => number; hung: Promise<void> }> {
  let polls = 0;
  let markHung: () => void = () => {};
  const hung = new Promise<void>((resolve) => (markHung = resolve));
  const server = await fakeServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path === `/api/v3/workspaces/${WORKSPACE}/contact-imports`) {
      req.resume();
      req.on('end', () => reply(res, 201, { status: 201, message: 'Contact import created successfully.', data: importRecord({}) }));
      return;
    }
    // An empty workspace: the import reads it first, to ask about changes a spreadsheet may have made.
    if (req.method === 'GET' && path.startsWith(`/api/v3/workspaces/${WORKSPACE}/contacts?`))
      return reply(res, 200, { data: [], meta: { current_page: 1, last_page: 1, per_page: 1, total: 0 } });
    if (req.method === 'GET' && path === `/api/v3/workspaces/${WORKSPACE}/contact-imports/8`) {
      const record = poll(polls++);
      if (record === undefined) return markHung();
      return reply(res, 200, { data: importRecord(record) });
    }
    reply(res, 404, { message: 'Resource not found.', status: 404 });
  });
  return { ...server, polls: () => polls, hung };
}

function envFor(url: string): NodeJS.ProcessEnv {
  return { ...testEnv(dir), WSM_BASE_URL: url, WSM_TOKEN: 'tok_waits_123456', WSM_WORKSPACE: WORKSPACE };
}

/** Starts the real binary with pipes; `interrupt()` sends SIGINT; `exited` gives its code and output. */
function started(env: NodeJS.ProcessEnv, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const seen: Array<{ text: string; resolve: () => void }> = [];
  const check = () => {
    for (const wait of [...seen]) {
      if (stderr.includes(wait.text)) {
        seen.splice(seen.indexOf(wait), 1);
        wait.resolve();
      }
    }
  };
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    exited,
    /** Resolves once stderr shows `text`. */
    stderrShows: (text: string) =>
      new Promise<void>((resolve) => {
        seen.push({ text, resolve });
        check();
      }),
    interrupt: () => child.kill('SIGINT'),
  };
}

describe('Ctrl-C during contacts import --wait (12.3)', () => {
  it('a real SIGINT says the import keeps running and how to wait again, exit 130; a poll in flight does not hold the exit', async () => {
    // The second poll never answers: only an aborted request lets the process end before its 30 s limit.
    const server = await importServer((n) => (n === 0 ? { status: 'processing' } : undefined));
    try {
      const run = started(envFor(server.url), ['contacts', 'import', file, '--wait', '--interval', '0.1s']);
      await run.stderrShows(`✓ uploaded ${file} as import 8`);
      await server.hung;
      run.interrupt();
      const { code, signal, stdout, stderr } = await run.exited;
      expect({ code, signal }).toEqual({ code: 130, signal: null });
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `✓ uploaded ${file} as import 8\ninterrupted: import 8 keeps running on the server: \`wsm imports get 8 --wait\`\n`,
      );
    } finally {
      await server.close();
    }
  });

  it('the resume command keeps the profile and workspace the interrupted one was given', async () => {
    const server = await importServer(() => ({ status: 'processing' }));
    try {
      const env = envFor(server.url);
      delete env.WSM_WORKSPACE;
      const run = started(env, ['contacts', 'import', file, '--wait', '--interval', '0.1s', '-w', WORKSPACE]);
      await run.stderrShows('as import 8\n');
      while (server.polls() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      run.interrupt();
      const { code, stderr } = await run.exited;
      expect(code).toBe(130);
      expect(stderr).toContain(`interrupted: import 8 keeps running on the server: \`wsm imports get 8 --wait -w ${WORKSPACE}\`\n`);
    } finally {
      await server.close();
    }
  });
});

describe('the upload line when piped (12.3)', () => {
  it('`✓ uploaded <file> as import N` goes to stderr also when piped, beside -o json on stdout; -q prints only the id', async () => {
    const server = await importServer(() => ({ status: 'completed' }));
    try {
      const res = await wsmInProcess(envFor(server.url), ['contacts', 'import', file, '-o', 'json']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(`✓ uploaded ${file} as import 8\n`);
      expect(JSON.parse(res.stdout)).toMatchObject({ id: 8, status: 'pending' });
      const quiet = await wsmInProcess(envFor(server.url), ['imports', 'create', file, '-q']);
      expect(quiet).toMatchObject({ code: 0, stdout: '8\n', stderr: '' });
    } finally {
      await server.close();
    }
  });
});

describe('import progress on a terminal (12.2)', () => {
  it('shows processed/total once the server has counted the rows; nothing on stderr when piped', async () => {
    const states = [
      { status: 'pending' },
      { status: 'processing', total_rows: 1000, processed_rows: 0 },
      { status: 'processing', total_rows: 1000, processed_rows: 250 },
      { status: 'processing', total_rows: 1000, processed_rows: 500 },
      { status: 'completed', total_rows: 1000, processed_rows: 1000, created_count: 1000 },
    ];
    const server = await importServer((n) => states[Math.min(n, states.length - 1)]);
    try {
      const out = join(dir, 'import.json');
      const { code, screen } = await onTerminal(
        envFor(server.url),
        ['contacts', 'import', 'people.csv', '--wait', '--interval', '0.3s', '-o', 'json'],
        { columns: 100, cwd: dir, redirect: `> '${out}'` },
      );
      expect(code).toBe(0);
      expect(screen).toContain('uploaded people.csv as import 8');
      // Before the count: done and rate only; after it: the bar, the share and done/total.
      expect(screen).toMatch(/Importing people\.csv 0 \| [\d,]+\/s/);
      expect(screen).toMatch(/Importing people\.csv █*░+ 25% \| 250\/1,000 \| [\d,]+\/s \| \S+ left/);
      expect(screen).toMatch(/Importing people\.csv █+░* 50% \| 500\/1,000/);
      // The bar is cleared (the erase) before the summary: the plan's counts of the file's 2 rows, then the
      // counters this server sends (made up, created alone), which disagree with them.
      expect(screen).toMatch(
        /\x1b\[2KImport 8 completed: 2 created, 0 unchanged, 0 rows left out, 0 rows failed; 2 contacts from 2 rows\.\nwarning: /,
      );
      expect(screen.replace(/\s+/g, ' ')).toMatch(
        /warning: import 8: the server counts 1,000 created where the plan expects 2 created of the rows sent: some rows were not applied as planned $/,
      );
      expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ status: 'completed', processed_rows: 1000 });

      const quiet = await onTerminal(envFor(server.url), ['imports', 'get', '8', '--wait', '--interval', '0.1s', '-q'], {
        columns: 100,
        redirect: `> '${out}'`,
      });
      expect(quiet).toMatchObject({ code: 0, screen: '' });
    } finally {
      await server.close();
    }
  });
});

describe('imports get <id> --wait resumes a wait (12.3)', () => {
  let served: Served;
  let standin: Standin;
  beforeAll(async () => {
    served = await serve(['--approval-delay', '0']);
    // Its imports never finish on their own: the test finishes one once the wait has polled it.
    standin = await startStandin({ importDelayMs: 600_000 });
  });
  afterAll(async () => {
    await standin?.close();
    if (served) expect(await served.stop()).toBe(0);
    if (served) cleanup(served.dir);
  });

  it('on wsm serve (GET one import): waits, prints the finished import, exit 0', async () => {
    const id = (await wsmInProcess(served.env, ['imports', 'create', file, '-q'])).stdout.trim();
    const res = await wsmInProcess(served.env, ['imports', 'get', id, '--wait', '--interval', '0.1s', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: Number(id), status: 'completed', created_count: 2 });
  });

  it('on the stand-in (no GET one import): the same wait, through the import list', async () => {
    const env = standin.env(dir);
    const id = (await wsmInProcess(env, ['imports', 'create', file, '-q'])).stdout.trim();
    const record = standin.state.imports.find((i) => String(i.id) === id)!;
    expect(record.status).toBe('pending');
    const listed = () => standin.requests.filter((r) => r === `GET /workspaces/${standin.workspace}/contact-imports`).length;
    const run = started(env, ['imports', 'get', id, '--wait', '--interval', '0.1s', '-o', 'json']);
    while (listed() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    record.status = 'completed';
    const res = await run.exited;
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: Number(id), status: 'completed' });
    // Plain get finds it in the list too.
    expect((await wsmInProcess(env, ['imports', 'get', id, '-q'])).stdout).toBe(`${id}\n`);
  });

  it("a bad id is exit 2 in the user's words; an unknown one exit 4", async () => {
    expect(await wsmInProcess(served.env, ['imports', 'get', 'abc', '--wait'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: import id must be a positive integer, got "abc"\n',
    });
    expect(await wsmInProcess(served.env, ['imports', 'get', '999', '--wait'])).toMatchObject({
      code: 4,
      stderr: 'error: no import 999 in this workspace (`wsm imports list` shows the imports there are)\n',
    });
  });
});

describe('Ctrl-C during templates sync --wait (12.3), progress (12.2)', () => {
  it('a real SIGINT while the provider reviews: one line saying so and how to resume, with the tracked templates, exit 130', async () => {
    const standin = await startStandin();
    try {
      standin.quirks.syncRoundsToDecide = 1_000;
      const env = standin.env(dir);
      const created = await wsmInProcess(env, [...createTemplateArgs('order_update'), '-q']);
      const id = created.stdout.trim();
      const run = started(env, ['templates', 'sync', '--wait', '--interval', '0.1s', '--fail-on-rejected', '--template', id]);
      const syncs = () => standin.requests.filter((r) => r.endsWith('/templates/sync')).length;
      while (syncs() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      run.interrupt();
      const { code, signal, stderr } = await run.exited;
      expect({ code, signal }).toEqual({ code: 130, signal: null });
      expect(stderr).toBe(
        `interrupted: the provider's review goes on: \`wsm templates sync --wait --fail-on-rejected --template ${id}\` resumes the wait\n`,
      );
    } finally {
      await standin.close();
    }
  });

  it('on a real terminal: decided/tracked while waiting, then Ctrl-C typed ends it with exit 130', async () => {
    const env = await slowWorkspace('Reviewed on a terminal');
    for (const name of ['order_update', 'order_shipped']) {
      const res = await wsmInProcess(env, createTemplateArgs(name));
      expect(res.code, res.stderr).toBe(0);
    }
    const { code, screen } = await onTerminal(env, ['templates', 'sync', '--wait', '--interval', '0.2s'], {
      columns: 100,
      keys: '\x03',
      when: 'Templates reviewed',
    });
    expect(screen).toMatch(/Templates reviewed ░+ 0% \| 0\/2/);
    // The bar is erased, then the one line.
    expect(screen).toMatch(/\x1b\[2Kinterrupted: the provider's review goes on: `wsm templates sync --wait` resumes the wait\n$/);
    expect(code).toBe(130);
  });
});

describe('templates sync --fail-on-rejected with named templates, against wsm serve (finding 3)', () => {
  it('an id that does not exist is exit 4 at once; an empty ids file exit 2; one deleted during the wait fails the check (exit 7)', async () => {
    const env = await slowWorkspace('Checked by CI');
    const created = await wsmInProcess(env, [
      'templates',
      'create',
      '--name',
      'ci_check_one',
      '--language',
      'en',
      '--category',
      'UTILITY',
      '--body',
      'Hi {{1}} there',
      '--variable',
      'Ann',
      '-q',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();

    const typo = await wsmInProcess(env, ['templates', 'sync', '--wait', '--fail-on-rejected', '--template', '999']);
    expect(typo).toEqual({ code: 4, stdout: '', stderr: 'error: template 999 not found\n' });
    const empty = join(dir, 'no-ids.txt');
    writeFileSync(empty, '');
    const none = await wsmInProcess(env, ['templates', 'sync', '--wait', '--fail-on-rejected', '--templates-from', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      `error: ${empty} names no templates: --templates-from takes ids, one a line (as \`wsm templates create -q\` prints them)\n`,
    );
    expect((await wsmInProcess(env, ['templates', 'get', id, '--jq', '.status'])).stdout).toBe('PENDING\n');

    // -v traces each request on stderr: the template is deleted once the wait has begun syncing.
    const run = started(env, ['templates', 'sync', '--wait', '--interval', '0.2s', '--fail-on-rejected', '--template', id, '-v']);
    await run.stderrShows('/templates/sync');
    expect((await wsmInProcess(env, ['templates', 'delete', id, '--yes'])).code).toBe(0);
    const { code, stdout, stderr } = await run.exited;
    expect(code).toBe(7);
    expect(stdout).toBe('');
    expect(stderr).toContain(`\nwarning: template ${id} was deleted during the sync: it counts as not approved\n`);
    expect(stderr).toMatch(new RegExp(`\\nerror: template ${id} was deleted before its review ended\\n$`));
  });
});
