/**
 * A wait whose server stops answering says each retry on stderr (piped: the
 * first at once, then at most one a 30 s) and ends with both the timeout and the cause, exit 6.
 * The real binary, piped, against nothing listening and against a stand-in that goes away.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, testEnv, wsm } from './processes.js';
import { fakeServer, reply } from './terminal.js';

const WS = '5f0e2b1c-3d4a-4e5f-8a9b-0c1d2e3f4a5b';
const dir = mkdtempSync(join(tmpdir(), 'wsm-wait-retries-'));
afterAll(() => cleanup(dir));
const envFor = (url: string) => ({ ...testEnv(dir), WSM_BASE_URL: url, WSM_TOKEN: 'tok_wait_retries', WSM_WORKSPACE: WS });
const NO_SERVER = (url: string) => `cannot reach ${url} (connection refused): no server is listening there; start one with \`wsm serve\``;

// The three waits are independent (each its own address or server) and spend their time waiting
// for the clock, not working: side by side, the file takes one wait's time instead of three.
describe.concurrent('a wait against a server that stops answering', () => {
  it('templates sync --wait with nothing listening: one retry line when piped, then "gave up after 3s: cannot reach …", exit 6', async () => {
    const url = 'http://127.0.0.1:9/api/v3';
    const started = Date.now();
    const res = await wsm(envFor(url), ['templates', 'sync', '--wait', '--timeout', '3s', '--template', '4', '-o', 'json']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(res.code).toBe(6);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^waiting for the templates' review: ${escape(NO_SERVER(url))}; trying again in 0\\.\\ds \\(gives up in \\d(\\.\\d)?s\\)$`,
      ),
    );
    expect(lines[1]).toBe(`error: gave up after 3s: ${NO_SERVER(url)}`);
    expect(JSON.parse(res.stdout)).toEqual({ error: { message: `gave up after 3s: ${NO_SERVER(url)}`, exit_code: 6 } });
  });

  it('templates sync --wait naming no template (the pending list is read first, retried as the wait is) gives up the same way', async () => {
    const url = 'http://127.0.0.1:9/api/v3';
    const res = await wsm(envFor(url), ['templates', 'sync', '--wait', '--timeout', '2s']);
    expect(res.code).toBe(6);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^waiting for the templates' review: cannot reach /);
    expect(lines.at(-1)).toBe(`error: gave up after 2s: ${NO_SERVER(url)}`);
  });

  it('imports get --wait whose server goes away mid-wait says so and gives up at its timeout', async () => {
    let polls = 0;
    const standin = await fakeServer((req, res) => {
      polls++;
      if (req.url === `/api/v3/workspaces/${WS}/contact-imports/8`)
        return reply(res, 200, { data: { id: 8, name: 'people.csv', status: 'processing', total_rows: 2, processed_rows: 0 } });
      reply(res, 404, { message: 'Resource not found.', status: 404 });
    });
    const running = wsm(envFor(standin.url), ['imports', 'get', '8', '--wait', '--timeout', '3s', '--interval', '0.2s']);
    while (polls < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await standin.close();
    const res = await running;
    expect(res.code).toBe(6);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^waiting for import 8: cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/v3 \((connection refused|the connection was reset|the connection closed unexpectedly)\)/,
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^error: gave up after 3s: cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/v3 \(connection refused\)/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
