import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/cli/config.js';
import { createTestIO } from '../../src/cli/io.js';
import type { Column } from '../../src/cli/columns.js';
import { createOutput, type OutputFormat } from '../../src/cli/output.js';
import { csvField } from '../../src/formats/csv/cells.js';
import { runCli, tempDir } from './helpers.js';

interface Row {
  id: number;
  name: string;
  tags: string[];
  note: string | null;
}

const rows: Row[] = [
  { id: 1, name: 'Ada Lovelace', tags: ['a', 'b'], note: 'likes "quotes", commas' },
  { id: 22, name: 'Bob', tags: [], note: null },
];
const columns: Column<Row>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'tags', header: 'TAGS' },
  { key: 'note', header: 'NOTE' },
];

async function* slowly<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield item;
  }
}

function render(format: OutputFormat, opts: { tty?: boolean; quiet?: boolean; color?: boolean } = {}) {
  const io = createTestIO({ stdoutTTY: opts.tty ?? false });
  if (opts.color === false) io.chooseColor({}, false);
  return { io, output: createOutput(io, { format, quiet: opts.quiet ?? false }) };
}

describe('list', () => {
  it('table on a terminal: aligned, headers, bold when colour is on', async () => {
    const { io, output } = render('table', { tty: true });
    expect(await output.list(rows, { columns })).toBe(2);
    const lines = io.stdoutText.split('\n');
    expect(lines[0]).toContain('\x1b[1mID\x1b[22m');
    expect(lines[1]).toBe('1   Ada Lovelace  ["a","b"]  likes "quotes", commas');
    expect(lines[2]).toBe('22  Bob           []');
  });

  it('table on a terminal without colour has no escape codes', async () => {
    const { io, output } = render('table', { tty: true, color: false });
    await output.list(rows, { columns });
    expect(io.stdoutText).not.toContain('\x1b');
    expect(io.stdoutText.split('\n')[0]).toBe('ID  NAME          TAGS       NOTE');
  });

  it('table on a terminal truncates long cells; piped never does', async () => {
    const long = [{ id: 1, name: 'x'.repeat(100), tags: [], note: null }];
    const tty = render('table', { tty: true });
    await tty.output.list(long, { columns });
    expect(tty.io.stdoutText).toContain('x'.repeat(59) + '…');
    const piped = render('table');
    await piped.output.list(long, { columns });
    expect(piped.io.stdoutText).toBe(`1\t${'x'.repeat(100)}\t[]\t\n`);
  });

  it('table when piped: tab-separated rows, no header, no colour', async () => {
    const { io, output } = render('table');
    await output.list(slowly([...rows, { id: 3, name: 'tab\there\nnewline', tags: [], note: null }]), { columns });
    expect(io.stdoutText).toBe('1\tAda Lovelace\t["a","b"]\tlikes "quotes", commas\n22\tBob\t[]\t\n3\ttab here newline\t[]\t\n');
  });

  it('json: the same bytes as JSON.stringify(rows, null, 2), streamed from an async iterable', async () => {
    const { io, output } = render('json', { tty: true });
    await output.list(slowly(rows), { columns });
    expect(io.stdoutText).toBe(JSON.stringify(rows, null, 2) + '\n');
  });

  it('json: an empty list is []', async () => {
    const { io, output } = render('json');
    expect(await output.list([], { columns })).toBe(0);
    expect(io.stdoutText).toBe('[]\n');
  });

  it('json writes rows as they arrive', async () => {
    const { io, output } = render('json');
    const seen: string[] = [];
    async function* watched() {
      yield rows[0];
      seen.push(io.stdoutText);
      yield rows[1];
    }
    await output.list(watched(), { columns });
    expect(seen[0]).toContain('"Ada Lovelace"');
  });

  it('ndjson: one compact record a line', async () => {
    const { io, output } = render('ndjson');
    await output.list(rows, { columns });
    expect(io.stdoutText).toBe(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });

  it('csv: header of keys, RFC 4180 quoting, nested values JSON-encoded', async () => {
    const { io, output } = render('csv', { tty: true });
    await output.list(rows, { columns });
    expect(io.stdoutText).toBe('id,name,tags,note\n1,Ada Lovelace,"[""a"",""b""]","likes ""quotes"", commas"\n22,Bob,[],\n');
  });

  it('-q: ids one a line whatever the format', async () => {
    for (const format of ['table', 'json', 'csv'] as const) {
      const { io, output } = render(format, { tty: true, quiet: true });
      await output.list(rows, { columns });
      expect(io.stdoutText).toBe('1\n22\n');
    }
  });
});

describe('record', () => {
  const record = { id: 7, name: 'Ada', role: { id: 1, name: 'Owner' } };

  it('json prints the object itself', async () => {
    const { io, output } = render('json');
    await output.record(record);
    expect(JSON.parse(io.stdoutText)).toEqual(record);
  });

  it('table on a terminal: label and value lines; dotted keys reach nested fields', async () => {
    const { io, output } = render('table', { tty: true, color: false });
    await output.record(record, {
      columns: [
        { key: 'name', header: 'Name' },
        { key: 'role.name', header: 'Role' },
      ],
    });
    expect(io.stdoutText).toBe('Name  Ada\nRole  Owner\n');
  });

  it('table when piped: key<TAB>value', async () => {
    const { io, output } = render('table');
    await output.record(record);
    expect(io.stdoutText).toBe('id\t7\nname\tAda\nrole\t{"id":1,"name":"Owner"}\n');
  });

  it('csv: header row then the record; -q: the id', async () => {
    const csv = render('csv');
    await csv.output.record(record);
    expect(csv.io.stdoutText).toBe('id,name,role\n7,Ada,"{""id"":1,""name"":""Owner""}"\n');
    const quiet = render('table', { quiet: true });
    await quiet.output.record(record);
    expect(quiet.io.stdoutText).toBe('7\n');
  });
});

describe('messages', () => {
  it('go to stderr on a terminal only, and -q silences them; warnings always show', () => {
    const tty = render('table', { tty: true });
    tty.output.message('Created contact 7');
    tty.output.warn('careful');
    expect(tty.io.stderrText).toBe('Created contact 7\nwarning: careful\n');
    expect(tty.io.stdoutText).toBe('');
    const piped = render('table');
    piped.output.message('Created contact 7');
    expect(piped.io.stderrText).toBe('');
    const quiet = render('table', { tty: true, quiet: true });
    quiet.output.message('Created contact 7');
    expect(quiet.io.stderrText).toBe('');
  });
});

it('csvField quotes only when needed', () => {
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  expect(csvField('say "hi"')).toBe('"say ""hi"""');
});

describe('colour through main()', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    const config = await openConfig({ dir });
    config.setProfile('default', { base_url: 'http://a/api/v3' });
    config.useProfile('default');
  });
  afterEach(() => cleanup());

  it('is on for a terminal', async () => {
    const { stdout } = await runCli(['profile', 'list'], { configDir: dir, stdoutTTY: true });
    expect(stdout).toContain('\x1b[1m');
  });

  it('is off with NO_COLOR, with --no-color, and when piped', async () => {
    const noColorEnv = await runCli(['profile', 'list'], { configDir: dir, stdoutTTY: true, env: { NO_COLOR: '1' } });
    const noColorFlag = await runCli(['profile', 'list', '--no-color'], { configDir: dir, stdoutTTY: true });
    const piped = await runCli(['profile', 'list'], { configDir: dir });
    for (const { stdout, code } of [noColorEnv, noColorFlag, piped]) {
      expect(code).toBe(0);
      expect(stdout).not.toContain('\x1b');
    }
    expect(noColorFlag.stdout.split('\n')[0]).toMatch(/^\s+NAME\s+BASE URL\s+WORKSPACE\s+TOKEN$/);
    expect(piped.stdout).toBe('*\tdefault\thttp://a/api/v3\t\t\n');
  });
});
