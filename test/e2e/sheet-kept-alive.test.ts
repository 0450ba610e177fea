/**
 * A large sheet checked and planned before its upload (--strict) reaches a server that closes an
 * idle kept-alive connection soon: the sheet's rows are in memory, and the check gives the event
 * loop its turns, so the connection the server closed meanwhile is seen closed and the upload goes
 * on a new one, never into the dead socket (`cannot reach … (EPIPE)`, exit 6). The server here is
 * `wsm serve` behind a proxy that closes a connection idle for 200 ms while its answers still say
 * `keep-alive: timeout=10` (wsm serve's), as a server whose limit is short or was reached can.
 * A sheet of 60,000 rows takes the check far longer than that (over a second here); a shorter limit
 * would race the client's own requests on a loaded machine.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeXlsx } from '../../src/formats/xlsx/sheet-writer.js';
import { forward } from './forward.js';
import { cleanup, localProfile, serve, type Served, wsm } from './processes.js';

const ROWS = 60_000;

async function sheetOf(path: string): Promise<void> {
  const chunks: Buffer[] = [];
  async function* pages() {
    for (let start = 0; start < ROWS; start += 1000)
      yield Array.from({ length: 1000 }, (_, i) => [String(14155500000 + start + i), `Person ${start + i}`, '']);
  }
  await writeXlsx(
    { write: async (bytes) => void chunks.push(Buffer.from(bytes)) },
    { sheetName: 'Contacts', header: ['number', 'name', 'email'], rows: pages(), sample: [] },
  );
  writeFileSync(path, Buffer.concat(chunks));
}

describe('a large sheet imported with --strict through a server that closes idle connections after 200 ms', () => {
  let server: Served;
  const proxy = createServer({ keepAliveTimeout: 200, keepAliveTimeoutBuffer: 0 }, (req, res) => forward(new URL(server.url), req, res));

  beforeAll(async () => {
    server = await serve(['--approval-delay', '0']);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await server?.stop();
    if (server) cleanup(server.dir);
  });

  it('is uploaded on a new connection and imported whole: exit 0, every row a contact', async () => {
    const file = join(server.dir, 'big.xlsx');
    await sheetOf(file);
    const local = localProfile(server);
    const env = {
      ...server.env,
      WSM_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v3`,
      WSM_TOKEN: local.token,
      WSM_WORKSPACE: local.workspace,
    };
    const imported = await wsm(env, ['contacts', 'import', file, '--strict', '--wait', '--interval', '100ms', '-o', 'json']);
    expect(imported.stderr).not.toContain('cannot reach');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ status: 'completed', total_rows: ROWS, created_count: ROWS, failed_count: 0 });
  });
});
