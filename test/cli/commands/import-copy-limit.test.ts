// The server's upload limit applies to what is sent: a file sent as the CSV of its rows (a
// semicolon-separated one, a UTF-16 one) is checked as that copy, whose size is not the file's.
// The limit is made 2 KB here (the real one is 100 MB, far too much to write in a test); the check
// and its message are the CLI's own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JSON_HEADERS, WSP, emptyWorkspace, formOf, importRecord, listFields, setupApi, type Api } from './harness.js';

vi.mock(import('../../../src/api/schemas/index.js'), async (original) => ({ ...(await original()), IMPORT_MAX_BYTES: 2048 }));

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const refusal = (file: string) => `error: ${file} is too large: nothing was sent\n  file: The file must not be greater than 2 kilobytes.\n`;

/** `count` rows of a number and a name, 11 digits each number. */
const rows = (count: number, name: string, separator: string) =>
  Array.from({ length: count }, (_, i) => `1415555${1000 + i}${separator}${name}\n`).join('');

describe('an import file whose copy is what is sent', () => {
  it('under the limit, its copy over it (a semicolon file whose cells gain quotes): exit 2 with the one line, nothing sent', async () => {
    const text = `number;name\n${rows(140, ',', ';')}`;
    expect(text.length).toBeLessThan(2048);
    const file = await api.file('commas.csv', text);
    emptyWorkspace(api);
    listFields(api);
    // No upload is intercepted: one sent would fail the run otherwise than the refusal.
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: refusal(file) });
  });

  it('over the limit, its copy under it (UTF-16 halves): sent, as that copy', async () => {
    const text = `number,name\n${rows(90, 'Ann', ',')}`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(bytes.length).toBeGreaterThan(2048);
    const file = await api.file('unicode.csv', bytes);
    emptyWorkspace(api);
    listFields(api);
    let form: Promise<FormData> | undefined;
    api.pool.intercept({ path: `${WSP}/contact-imports`, method: 'POST' }).reply((opts) => {
      form = formOf(opts);
      return {
        statusCode: 201,
        data: JSON.stringify({ status: 201, message: 'Contact import created successfully.', data: importRecord(5) }),
        responseOptions: JSON_HEADERS,
      };
    });
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '5\n', stderr: '' });
    expect(await ((await form!).get('file') as File).text()).toBe(text);
  });

  it('more than eight times over the limit, no copy of it could fit: refused by its size before it is read', async () => {
    // Past its start the file is not UTF-8: read, it would be refused for that instead.
    const text = Buffer.concat([Buffer.from(`number;name\n${rows(7000, 'Ann', ';')}`), Buffer.from([0xe9, 0x0a])]);
    expect(text.length).toBeGreaterThan(8 * 2048);
    const file = await api.file('huge.csv', text);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: refusal(file) });
  });

  it('a file sent as its own bytes is still refused by its size, before anything is read or sent', async () => {
    const file = await api.file('plain.csv', `number,name\n${rows(160, 'Ann', ',')}`);
    for (const verb of [
      ['contacts', 'import'],
      ['imports', 'create'],
    ]) {
      const { code, stdout, stderr } = await api.run([...verb, file, '-q']);
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: refusal(file) });
    }
  });
});
