/**
 * Colour by the conventions, each on a real pseudo-terminal through `script`: the real
 * binary, a table on stdout (its header is bold when coloured) and the ✓ line on stderr. No server:
 * `profile list` and `profile use` read and write only the config file.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, testEnv } from './processes.js';
import { onTerminal } from './terminal.js';

let dir: string;
let base: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-colour-'));
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  const profile = { base_url: 'http://127.0.0.1:9/api/v3', workspace: '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f' };
  writeFileSync(join(dir, 'config', 'config.json'), JSON.stringify({ current: 'local', profiles: { local: profile } }), { mode: 0o600 });
  // What a colour terminal's shell has: no NO_COLOR, no FORCE_COLOR, a TERM that takes colour.
  base = { ...testEnv(dir), TERM: 'xterm-256color' };
  for (const key of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS', 'CLICOLOR_FORCE']) delete base[key];
});
afterAll(() => cleanup(dir));

const BOLD = '\x1b[1m';
const GREEN_MARK = '\x1b[32m✓\x1b[39m';
/** A table on a terminal, and nothing coloured in it. */
const plainTable = (raw: string) => !raw.includes('\x1b[') && /NAME\s+BASE URL/.test(raw);

describe('colour on a real terminal', () => {
  it('is on for a terminal that takes it: the table header is bold, the ✓ green', async () => {
    const [table, done] = await Promise.all([onTerminal(base, ['profile', 'list']), onTerminal(base, ['profile', 'use', 'local'])]);
    expect(table.code).toBe(0);
    expect(table.raw).toContain(`${BOLD}NAME`);
    expect(done.raw).toContain(`${GREEN_MARK} now using profile "local"`);
  });

  it('is off with NO_COLOR, with --no-color, with TERM=dumb and with FORCE_COLOR=0', async () => {
    const runs = await Promise.all([
      onTerminal({ ...base, NO_COLOR: '1' }, ['profile', 'list']),
      onTerminal(base, ['profile', 'list', '--no-color']),
      onTerminal({ ...base, TERM: 'dumb' }, ['profile', 'list']),
      onTerminal({ ...base, FORCE_COLOR: '0' }, ['profile', 'list']),
      onTerminal({ ...base, TERM: 'dumb' }, ['profile', 'use', 'local']),
    ]);
    for (const [i, run] of runs.entries())
      expect({ i, code: run.code, escapes: run.raw.includes('\x1b[') }).toEqual({ i, code: 0, escapes: false });
    for (const run of runs.slice(0, 4)) expect(plainTable(run.raw)).toBe(true);
    expect(runs[4].raw).toContain('✓ now using profile "local"');
  });

  it('into a pipe: off, unless FORCE_COLOR asks for it (a CI log that renders colour); NO_COLOR still wins', async () => {
    const piped = { redirect: '2>&1 | cat' };
    const [plain, forced, both] = await Promise.all([
      onTerminal(base, ['profile', 'use', 'local'], piped),
      onTerminal({ ...base, FORCE_COLOR: '1' }, ['profile', 'use', 'local'], piped),
      onTerminal({ ...base, FORCE_COLOR: '1', NO_COLOR: '1' }, ['profile', 'use', 'local'], piped),
    ]);
    expect(plain.raw).toContain('✓ now using profile "local"');
    expect(plain.raw).not.toContain('\x1b[');
    expect(forced.raw).toContain(`${GREEN_MARK} now using profile "local"`);
    expect(both.raw).not.toContain('\x1b[');
  });
});
