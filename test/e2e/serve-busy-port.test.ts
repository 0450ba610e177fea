/**
 * `wsm serve` on a port another process holds fails before it makes anything
 * on disk: no database, no lock, no uploads folder is left behind. The real binary.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanup, heldPort, testEnv, wsm } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-busy-port-'));
afterAll(() => cleanup(dir));

it('a port in use: one line, exit 1, and the database folder left as it was', async () => {
  const { port, release } = await heldPort();
  const data = join(dir, 'data');
  try {
    const res = await wsm(testEnv(dir), ['serve', '--port', String(port), '--db', join(dir, 'wsm.db')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `error: port ${port} on 127.0.0.1 is already in use (another \`wsm serve\`?): stop that process or pick another port with --port\n`,
    );
    expect(readdirSync(dir).filter((name) => name !== 'config' && name !== 'data')).toEqual([]);
    // Without --db, the default database in the data directory is not made either.
    const again = await wsm(testEnv(dir), ['serve', '--port', String(port)]);
    expect(again.code).toBe(1);
    expect(readdirSync(dir).includes('data') ? readdirSync(data) : []).toEqual([]);
  } finally {
    release();
  }
});
