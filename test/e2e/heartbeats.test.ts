/**
 * A piped wait says it is alive (docs/output.md "Waits"): at least one line every 30 s on stderr,
 * `waiting for 2 templates: 2 PENDING; 3s of 30m`, so a CI system never takes a long review for a
 * hung job. WSM_HEARTBEAT_INTERVAL (for tests) brings the 30 s down; each test waits for the lines,
 * then stops the wait with Ctrl-C. The real binary, piped, against a `wsm serve` whose provider
 * reviews for a minute, and a stand-in import that never ends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, createTemplateArgs, spawned, testEnv } from './processes.js';
import { unendingServer, type UnendingServer } from './unending-server.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-heartbeats-'));
let slow: Backend;
let importing: UnendingServer;

beforeAll(async () => {
  writeFileSync(join(dir, 'people.csv'), 'number,name\n14155550101,Ann\n');
  slow = await serveBackend({ approvalDelayMs: 60_000 });
  importing = await unendingServer();
});

afterAll(async () => {
  await importing?.close();
  if (slow) expect(await slow.stop()).toBe(0);
  if (slow) cleanup(slow.dir);
  cleanup(dir);
});

/** Runs a wait until stderr holds `count` heartbeat lines, then Ctrl-C: its stderr's lines. */
async function heartbeatsOf(env: NodeJS.ProcessEnv, args: string[], count: number): Promise<string[]> {
  const run = spawned({ ...env, WSM_HEARTBEAT_INTERVAL: '0.3s' }, args);
  await waitFor(
    () =>
      run
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('waiting for ')).length >= count,
  );
  run.child.kill('SIGINT');
  expect(await run.code).toBe(130);
  return run.stderr().split('\n');
}

describe('a piped wait prints what it waits for and for how long', () => {
  it('templates sync --wait: the tracked templates by status, the time waited of the --timeout', async () => {
    const workspace = await wsmInProcess(slow.env, ['workspace', 'create', 'Heartbeats', '-o', 'json']);
    const env = { ...slow.env, WSM_WORKSPACE: JSON.parse(workspace.stdout).id as string };
    const ids: string[] = [];
    for (const name of ['order_update', 'order_shipped']) {
      const made = await wsmInProcess(env, [...createTemplateArgs(name), '-q']);
      expect(made.code, made.stderr).toBe(0);
      ids.push(made.stdout.trim());
    }
    const args = ['templates', 'sync', '--wait', '--interval', '0.2s', ...ids.flatMap((id) => ['--template', id])];
    const lines = await heartbeatsOf(env, args, 2);
    const beats = lines.filter((line) => line.startsWith('waiting for '));
    for (const line of beats) expect(line).toMatch(/^waiting for 2 templates(: 2 PENDING)?; \d+s of 30m$/);
    expect(beats.at(-1)).toMatch(/: 2 PENDING; /);
  });

  it.each([
    ['contacts import --wait', ['contacts', 'import', join(dir, 'people.csv'), '--wait', '--interval', '0.2s', '--timeout', '2h']],
    ['imports get --wait', ['imports', 'get', '8', '--wait', '--interval', '0.2s', '--timeout', '2h']],
  ])('%s: the import, its status and rows counted so far, the time waited of the --timeout', async (_name, args) => {
    const env = importing.env(testEnv(dir));
    const beats = (await heartbeatsOf(env, args, 2)).filter((line) => line.startsWith('waiting for '));
    for (const line of beats) expect(line).toMatch(/^waiting for import 8: (pending|processing, 250 of 1,000 rows); \d+s of 2h$/);
    expect(beats.at(-1)).toMatch(/processing, 250 of 1,000 rows/);
  });

  it('a bad WSM_HEARTBEAT_INTERVAL is exit 2, named', async () => {
    const env = importing.env(testEnv(dir));
    const res = await wsmInProcess({ ...env, WSM_HEARTBEAT_INTERVAL: 'often' }, ['imports', 'get', '8', '--wait']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: WSM_HEARTBEAT_INTERVAL takes a duration such as 10s, 2m or 500ms, got "often"\n');
  });
});
