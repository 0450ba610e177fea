/**
 * An operator at a terminal (tables, values for people, progress, control characters): the real
 * `wsm` binary on real pseudo-terminals of 60, 80 and 120 columns against a real `wsm serve`; the
 * piped runs it is compared with run in-process (in-process.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, localProfile } from './processes.js';
import { visible } from '../../src/cli/text.js';
import { finalScreen, onTerminal, plainLines } from './terminal.js';

let server: Backend;
let colourEnv: NodeJS.ProcessEnv;
const NUMBERS = ['14155550101', '14155550102', '351912345678901'];
const LONG_NAME = 'Maria Fernanda de Albuquerque Vasconcelos Teixeira';

async function api(method: string, path: string, body?: unknown): Promise<{ data: { id: number } }> {
  const { token, workspace } = localProfile(server);
  const res = await fetch(`${server.url}/workspaces/${workspace}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: { id: number } }>;
}

beforeAll(async () => {
  server = await serveBackend();
  colourEnv = { ...server.env };
  delete colourEnv.NO_COLOR;
  await api('POST', '/contact-groups', { name: 'Customers from the northern region' });
  await api('POST', '/contacts', { number: NUMBERS[0], name: LONG_NAME, email: 'maria.fernanda.teixeira@example-company.com' });
  await api('POST', '/contacts', { number: NUMBERS[1], name: 'Ann \x1b]0;pwned\x07 Lee\x1b[2J', email: 'ann@example.com' });
  await api('POST', '/contacts', { number: NUMBERS[2], name: 'Bob', email: null });
  for (let i = 0; i < 240; i++) await api('POST', '/contacts', { number: `1415560${String(i).padStart(4, '0')}`, name: `Bulk ${i}` });
  await api('POST', '/templates', {
    name: 'order_update',
    language: 'en',
    category: 'UTILITY',
    body: { text: 'Your order {{1}} is on its way.', variables: ['A-1'] },
    buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/track' }],
  });
  await api('POST', '/templates', { name: 'login_code', language: 'en', category: 'AUTHENTICATION', codeExpirationMinutes: 10 });
  await api('POST', '/templates/sync'); // --approval-delay 0: both are APPROVED now
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('tables fit the terminal', () => {
  it.each([60, 80, 120])('contacts list at %i columns: no line wider, ids and numbers whole', async (columns) => {
    const { code, screen } = await onTerminal(server.env, ['contacts', 'list', '--per-page', '5'], { columns });
    expect(code).toBe(0);
    const lines = plainLines(screen);
    expect(lines[0]).toMatch(/^ID\s+NUMBER\s+NAME\s+EMAIL/);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
    for (const number of NUMBERS) expect(screen).toContain(number);
    expect(lines.some((line) => /^3\s+351912345678901\s+Bob/.test(line))).toBe(true);
    // The long name and e-mail give way first, less so the wider the terminal.
    expect(screen).toMatch(/Maria Fern[^\n]*…/);
    if (columns === 120) expect(screen).toContain('Maria Fernanda de Albuquerque Vasco');
  });

  it('a terminal that reports 0 columns (as `script` makes one) is of unknown width: a message is not cut after every word', async () => {
    writeFileSync(join(server.dir, 'zero-columns.csv'), 'number,name,plan_tier\n14155550999,Zed,gold\n');
    const { code, screen } = await onTerminal(server.env, ['contacts', 'import', 'zero-columns.csv', '--dry-run'], {
      columns: 0,
      cwd: server.dir,
    });
    expect(code).toBe(0);
    const lines = plainLines(screen);
    expect(lines.some((line) => line.startsWith('warning: zero-columns.csv: column "plan_tier" will'))).toBe(true);
    // Wrapped at 80 as a terminal of unknown width is, not after every word.
    expect(lines.find((line) => line.startsWith('warning:'))!.split(' ').length).toBeGreaterThan(3);
  });

  it('piped, the same rows are whole and tab-separated', async () => {
    const { stdout } = await wsmInProcess(server.env, ['contacts', 'list', '--per-page', '1']);
    // Groups as the export writes them: a JSON array of names, `[]` for none.
    expect(stdout).toBe(`1\t${NUMBERS[0]}\t${LONG_NAME}\tmaria.fernanda.teixeira@example-company.com\ttrue\t[]\n`);
  });

  it('a single record wraps instead of cutting: every permission of the owner role is shown whole', async () => {
    const role = JSON.parse((await wsmInProcess(server.env, ['roles', 'get', '1', '-o', 'json'])).stdout) as { permissions: string[] };
    expect(role.permissions.length).toBeGreaterThan(20);
    const { code, screen } = await onTerminal(server.env, ['roles', 'get', '1'], { columns: 80 });
    expect(code).toBe(0);
    for (const line of plainLines(screen)) expect(line.length, line).toBeLessThanOrEqual(80);
    const shown = plainLines(screen).join(' ').split(/\s+/);
    for (const permission of role.permissions) expect(shown).toContain(permission);
  });
});

describe('values for people', () => {
  it('times are relative on a terminal and absolute with -o json', async () => {
    const { screen } = await onTerminal(server.env, ['groups', 'list'], { columns: 80 });
    expect(screen).toMatch(/Customers from the northern region\s+\d+\s+(just now|\d+ (seconds?|minutes?) ago)/);
    const { stdout } = await wsmInProcess(server.env, ['groups', 'list', '-o', 'json']);
    expect(JSON.parse(stdout)[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('statuses are coloured on a terminal (never with NO_COLOR or when piped)', async () => {
    const coloured = await onTerminal(colourEnv, ['templates', 'list'], { columns: 100 });
    expect(coloured.screen).toMatch(/\x1b\[32mAPPROVED\x1b\[39m/);
    const plain = await onTerminal(server.env, ['templates', 'list'], { columns: 100 });
    expect(plain.screen).not.toContain('\x1b[32m');
    expect((await wsmInProcess(colourEnv, ['templates', 'list'])).stdout).not.toContain('\x1b[');
  });

  it('templates get shows the buttons and the category options in the table view', async () => {
    const url = await onTerminal(server.env, ['templates', 'get', '1'], { columns: 80 });
    expect(plainLines(url.screen)).toContain('Buttons           URL: Track -> https://example.com/track');
    const auth = await onTerminal(server.env, ['templates', 'get', '2'], { columns: 80 });
    expect(plainLines(auth.screen)).toContain('Options           codeExpirationMinutes: 10');
  });
});

describe('control characters never reach the terminal raw', () => {
  it('a name holding ESC]0;… shows as text in tables and records', async () => {
    for (const args of [
      ['contacts', 'list', '--per-page', '5'],
      ['contacts', 'get', '2'],
    ]) {
      const { screen } = await onTerminal(server.env, args, { columns: 120 });
      expect(screen).toContain('Ann \\x1b]0;pwned\\x07 Lee\\x1b[2J');
      expect(screen).not.toContain('\x1b]0;');
      expect(screen).not.toContain('\x1b[2J');
    }
  });

  it('-o json keeps the value exactly, escaped as JSON', async () => {
    const { stdout } = await wsmInProcess(server.env, ['contacts', 'get', '2', '-o', 'json']);
    expect(stdout).not.toContain('\x1b');
    expect(JSON.parse(stdout).name).toBe('Ann \x1b]0;pwned\x07 Lee\x1b[2J');
  });
});

describe('progress', () => {
  it('export on a terminal draws done/total, percentage, rate and time left on stderr, then clears it', async () => {
    const out = join(server.dir, 'export.csv');
    const { code, screen } = await onTerminal(server.env, ['contacts', 'export'], { columns: 100, redirect: `> '${out}'` });
    expect(code).toBe(0);
    expect(screen).toMatch(/Exporting contacts █+ 100% \| 243\/243 \| [\d,]+\/s \| 0s left/);
    // Cleared when done: the last thing on the line is the erase, then the summary.
    expect(screen).toMatch(/\r\x1b\[2KExported 243 contacts\.\n$/);
    expect(readFileSync(out, 'utf8').split('\n')).toHaveLength(245);
  });

  it('the bar fits a narrow terminal: no drawn line is as wide as its 60 columns (finding 15)', async () => {
    const { code, raw } = await onTerminal(server.env, ['contacts', 'export'], { columns: 60, redirect: '> /dev/null' });
    expect(code).toBe(0);
    const drawn = raw
      .split(/[\r\n]/)
      .map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))
      .filter((l) => l.startsWith('Exporting'));
    expect(drawn.length).toBeGreaterThan(0);
    for (const line of drawn) expect(line.length, line).toBeLessThan(60);
    expect(drawn.at(-1)).toMatch(/^Exporting contacts █+ 100% \| 243\/243/);
  });
});

describe('progress never eats output when stdout is the same terminal (finding 1)', () => {
  // What is left on the screen afterwards, played on a terminal emulator: a save/restore of the
  // cursor around the rows used to erase the header and leave the bar behind.
  it('groups list --all: the table whole, header first, no bar left, the next command below', async () => {
    const { raw } = await onTerminal(server.env, ['groups', 'list', '--all'], { columns: 80, redirect: '; echo "rc=$?"' });
    expect(await finalScreen(raw, 80)).toEqual([
      expect.stringMatching(/^ID\s+NAME\s+CONTACTS/),
      expect.stringMatching(/^1\s+Customers from the northern region\s+0/),
      'rc=0',
    ]);
  });

  it.each([60, 80])(
    'contacts list --all at %i columns, longer than the screen: every row once, in order, then the next command',
    async (columns) => {
      const piped = await wsmInProcess(server.env, ['contacts', 'list', '--all', '-o', 'json']);
      const ids = (JSON.parse(piped.stdout) as { id: number }[]).map((c) => String(c.id));
      expect(ids).toHaveLength(243);
      const { raw } = await onTerminal(server.env, ['contacts', 'list', '--all'], { columns, redirect: '; echo "rc=$?"' });
      const lines = await finalScreen(raw, columns);
      expect(lines[0]).toMatch(/^ID\s+NUMBER\s+NAME/);
      expect(lines.slice(1, -1).map((l) => l.split(/\s+/)[0])).toEqual(ids);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      expect(lines.at(-1)).toBe('rc=0');
    },
  );

  it('labels list --all -o json: the JSON whole, from its opening bracket', async () => {
    for (const name of ['urgent', 'later']) await api('POST', '/labels', { name });
    const piped = await wsmInProcess(server.env, ['labels', 'list', '--all', '-o', 'json']);
    expect(JSON.parse(piped.stdout)).toHaveLength(2);
    const { code, raw } = await onTerminal(server.env, ['labels', 'list', '--all', '-o', 'json'], { columns: 80 });
    expect(code).toBe(0);
    expect(await finalScreen(raw, 80)).toEqual(piped.stdout.trimEnd().split('\n'));
  });

  it('contacts export to the terminal: every row whole (long ones wrap, none is cut), then the summary', async () => {
    const piped = await wsmInProcess(server.env, ['contacts', 'export']);
    // On a terminal, control characters in values are shown as escapes (the ESC]0; name).
    const rows = piped.stdout.trimEnd().split('\n').map(visible);
    expect(rows).toHaveLength(244);
    const { code, raw } = await onTerminal(server.env, ['contacts', 'export'], { columns: 80 });
    expect(code).toBe(0);
    expect(await finalScreen(raw, 80)).toEqual([...rows, 'Exported 243 contacts.']);
  });

  it('no progress when stderr is piped, or with -q', async () => {
    const piped = await wsmInProcess(server.env, ['contacts', 'export']);
    expect(piped.stderr).toBe('');
    const out = join(server.dir, 'ids.txt');
    const quiet = await onTerminal(server.env, ['contacts', 'export', '-q'], { columns: 100, redirect: `> '${out}'` });
    expect(quiet.screen).toBe('');
    expect(readFileSync(out, 'utf8').split('\n')).toHaveLength(244);
  });
});

describe('delete confirmations', () => {
  it('a template delete on a terminal names it and asks to type its name; a wrong name deletes nothing', async () => {
    writeFileSync(join(server.dir, 'unused'), '');
    const wrong = await onTerminal(server.env, ['templates', 'delete', '2'], { columns: 240, keys: 'nope\r', when: 'Type its name' });
    expect(wrong.code).toBe(2);
    expect(wrong.screen).toContain(
      'Delete template login_code (id 2, APPROVED)? This cannot be undone: a template deleted at the provider cannot be brought back (a new one would go through review again). Type its name (login_code) to confirm',
    );
    expect(wrong.screen).toContain('error: "nope" is not "login_code": nothing was deleted');
    expect((await wsmInProcess(server.env, ['templates', 'get', '2', '-q'])).stdout).toBe('2\n');

    const right = await onTerminal(server.env, ['templates', 'delete', '2'], { columns: 240, keys: 'login_code\r', when: 'Type its name' });
    expect(right.code).toBe(0);
    expect(right.screen).toContain('✓ deleted template login_code (id 2, APPROVED)');
    expect((await wsmInProcess(server.env, ['templates', 'get', '2'])).code).toBe(4);
  });

  it('a delete of something that does not exist fails before asking', async () => {
    const { code, screen } = await onTerminal(server.env, ['groups', 'delete', '99'], { columns: 120 });
    expect(code).toBe(4);
    expect(screen).not.toContain('?');
    expect(screen).toContain('error: group 99 not found');
  });

  it('a group delete on a terminal names the group and its size (y/N)', async () => {
    const { code, screen } = await onTerminal(server.env, ['groups', 'delete', '1'], {
      columns: 240,
      keys: 'n\r',
      when: 'Delete contact group',
    });
    expect(code).toBe(2);
    expect(screen).toContain(
      'Delete contact group Customers from the northern region (id 1, 0 contacts)? wsm undo can make it again, with a new id (the contacts that were in it are not put back in it)',
    );
  });
});
