/**
 * The in-process runner (in-process.ts) answers as the real binary does: a sample of commands,
 * each run both ways against one real `wsm serve`, must give the same exit code, stdout and
 * stderr, byte for byte. The sample covers what a run can differ in: the launcher's own answers
 * (--version, --help), tables, JSON, CSV, --jq, stdin, -v traces, every kind of failure
 * (commander's, a usage error, local validation, 4xx from the server, a config problem), files
 * read and written relative to the working directory, and writes, a duplicate among them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, testEnv, wsm, type RunResult } from './processes.js';

let server: Backend;
let files: { csv: string; workspaceFile: string; badConfig: string };

beforeAll(async () => {
  server = await serveBackend();
  const seed = async (...args: string[]) => expect((await wsmInProcess(server.env, args)).code).toBe(0);
  await seed('groups', 'create', 'VIP');
  await seed('fields', 'create', 'city');
  await seed(
    'contacts',
    'create',
    '--number',
    '14155550101',
    '--name',
    '=1+1 Ann',
    '--email',
    'ann@example.com',
    '--field',
    'city=Lisbon',
    '--group',
    '1',
  );
  await seed('contacts', 'create', '--number', '14155550102', '--name', 'Bo\x1b[2J');
  await seed('labels', 'create', 'urgent', '--color', '#ff0000');
  const csv = join(server.dir, 'people.csv');
  writeFileSync(csv, 'number,name,email\n14155550103,Cy,cy@example.com\nnot-a-number,Bad,\n');
  const workspaceFile = join(server.dir, 'ws.yaml');
  writeFileSync(workspaceFile, 'fields: [city, plan]\ngroups: [VIP]\nlabels:\n  - { name: urgent, color: "#00ff00" }\n');
  const badConfig = join(server.dir, 'bad-config');
  mkdirSync(badConfig, { mode: 0o700 });
  writeFileSync(join(badConfig, 'config.json'), '{"profiles": {', { mode: 0o600 });
  files = { csv, workspaceFile, badConfig };
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

/** A -v trace holds how long each request took and the server's Date: the rest must match. */
const steady = (res: RunResult) => ({ ...res, stderr: res.stderr.replace(/\(\d+ ms\)/g, '(N ms)').replace(/^< date: .*$/gm, '< date: D') });

async function bothWays(args: string[], input?: string, env: NodeJS.ProcessEnv = server.env): Promise<RunResult> {
  const binary = await wsm(env, args, input);
  const inProcess = await wsmInProcess(env, args, input);
  expect(steady(inProcess), `wsm ${args.join(' ')}`).toEqual(steady(binary));
  return binary;
}

describe('wsmInProcess gives what the binary gives', () => {
  it.each([
    [['--version']],
    [['--help']],
    [['contacts', 'list']],
    [['contacts', 'list', '-o', 'json']],
    [['contacts', 'export']],
    [['contacts', 'get', '1', '--jq', '.contact_groups[].name']],
    [['labels', 'list', '-v']],
  ])('wsm %j', async (args) => {
    expect((await bothWays(args)).code).toBe(0);
  });

  it.each([
    [['contacts', 'lst'], 2],
    [['contacts', 'list', '--nope', '-o', 'json'], 2],
    [['contacts', 'get', '999', '-o', 'json'], 4],
    [['contacts', 'create', '--number', '12', '-o', 'json'], 2],
    [['contacts', 'delete', '1'], 2],
    [['serve', '--port', 'abc'], 2],
  ])('failing: wsm %j', async (args, code) => {
    expect((await bothWays(args)).code).toBe(code);
  });

  it('files: an import checked locally, a plan, a pull to stdout', async () => {
    expect((await bothWays(['contacts', 'import', files.csv, '--dry-run', '-o', 'json'])).stderr).toMatch(/row 3/);
    expect((await bothWays(['diff', '-f', files.workspaceFile])).code).toBe(2);
    expect((await bothWays(['pull', '-o', 'yaml'])).code).toBe(0);
  });

  it('stdin: rows read from a pipe, checked before anything is sent', async () => {
    const res = await bothWays(['contacts', 'update', '--from', '-'], 'id,name,email\n1,Ok,\n2,Bad,not-mail\n');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('line 3 email');
  });

  it('the environment: a broken config file, a base URL without /api/v3', async () => {
    expect((await bothWays(['contacts', 'list'], undefined, { ...testEnv(server.dir), WSM_CONFIG_DIR: files.badConfig })).code).toBe(2);
    expect(
      (await bothWays(['contacts', 'list', '-o', 'json'], undefined, { ...server.env, WSM_BASE_URL: server.url.replace(/\/api\/v3$/, '') }))
        .code,
    ).toBe(4);
  });

  it('the change journal records the command line each was given', async () => {
    const commandOf = async (run: typeof wsm, name: string) => {
      expect((await run(server.env, ['labels', 'create', name, '--color', '#0000ff'])).code).toBe(0);
      const [change] = JSON.parse((await run(server.env, ['history', '-o', 'json'])).stdout) as Array<{ command: string }>;
      return change.command;
    };
    const binary = await commandOf(wsm, 'Journaled by the binary');
    expect(binary).toBe("wsm labels create 'Journaled by the binary' --color '#0000ff'");
    expect(await commandOf(wsmInProcess, 'Journaled by in-process')).toBe(binary.replace('the binary', 'in-process'));
  });

  it('writes: the same commands in two fresh workspaces answer the same, a duplicate included', async () => {
    const workspaceFor = async (name: string) =>
      JSON.parse((await wsmInProcess(server.env, ['workspace', 'create', name, '-o', 'json'])).stdout).id as string;
    const [forBinary, forInProcess] = [await workspaceFor('For the binary'), await workspaceFor('For in-process')];
    const steps = [
      ['labels', 'create', 'VIP', '--color', '#ff0000'],
      ['groups', 'create', 'News', '-o', 'json'],
      ['contacts', 'create', '--number', '14155550109', '--name', 'Dee'],
      ['contacts', 'create', '--number', '14155550109', '--name', 'Dee'],
      ['apply', '-f', files.workspaceFile, '--yes'],
    ];
    // Ids are counted across workspaces, and the records were made a moment apart.
    const comparable = (res: RunResult, workspace: string) => ({
      ...res,
      stdout: res.stdout
        .replaceAll(workspace, 'W')
        .replace(/^Workspace: .* \(W\)/m, 'Workspace: NAME (W)')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'T')
        .replace(/\(id \d+\)/g, '(id N)')
        .replace(/^id\t\d+$/gm, 'id\tN')
        .replace(/"id": \d+/g, '"id": N'),
      // The ✓ line names the record made, whose id differs between the two workspaces.
      stderr: res.stderr.replace(/^(✓ [a-z ]+) \d+/gm, '$1 N'),
    });
    const codes: Array<number | null> = [];
    for (const step of steps) {
      const binary = await wsm(server.env, ['-w', forBinary, ...step]);
      const inProcess = await wsmInProcess(server.env, ['-w', forInProcess, ...step]);
      expect(comparable(inProcess, forInProcess), `wsm ${step.join(' ')}`).toEqual(comparable(binary, forBinary));
      codes.push(binary.code);
    }
    expect(codes).toEqual([0, 0, 0, 5, 0]);
  });
});
