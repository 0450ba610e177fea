// Limits said before anything is sent: an import file over the server's limit is exit 2 naming the
// limit (the server would take all of it first, then answer a bare 413), and `--cors` refuses a
// wildcard host, which no browser's Origin would ever match.
import { closeSync, openSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_MAX_BYTES } from '../../../src/api/schemas/index.js';
import { setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

describe('an import over the server limit', () => {
  it('is exit 2 naming the limit, before the file is read or anything sent', async () => {
    const file = join(api.dir, 'big.csv');
    // A sparse file: its size is what is checked, and nothing of it is read.
    const fd = openSync(file, 'w');
    ftruncateSync(fd, IMPORT_MAX_BYTES + 1);
    closeSync(fd);
    for (const verb of [
      ['contacts', 'import'],
      ['imports', 'create'],
    ]) {
      const { code, stderr } = await api.run([...verb, file, '--yes']);
      expect({ code, stderr }).toEqual({
        code: 2,
        stderr: `error: ${file} is too large: nothing was sent\n  file: The file must not be greater than 102400 kilobytes.\n`,
      });
    }
  });
});

describe('wsm serve --cors', () => {
  it.each(['https://*.example.com', 'http://*:5173', '*.example.com'])('%s is refused: exit 2, one line', async (origin) => {
    const { code, stdout, stderr } = await api.run(['serve', '--port', '0', '--db', join(api.dir, 'wsm.db'), '--cors', origin]);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --cors takes whole origins, and "${origin}" has a wildcard, which no browser's Origin matches: name each origin (repeat --cors), or * for any\n`,
    });
  });
});
