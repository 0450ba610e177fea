// A mutating command says what it did in one line on stderr, piped too, as gh does:
// `✓ deleted label 4`; -q silences it. One helper (Output.done) says it for every mutating verb.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WS, WSP, contact, label, page, setupApi, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

describe('piped, every mutating verb says what it did on stderr', () => {
  it('labels create, update and delete --yes', async () => {
    api.pool
      .intercept({ path: `${WSP}/labels`, method: 'POST' })
      .reply(201, { status: 201, message: 'Label created successfully.', data: label(4, 'VIP') }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/labels/4`, method: 'PUT' })
      .reply(200, { status: 200, message: 'Label updated successfully.', data: label(4, 'Gold') }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/labels/4`, method: 'DELETE' })
      .reply(200, { status: 200, message: 'Label deleted successfully.' }, JSON_HEADERS);
    expect((await api.run(['labels', 'create', 'VIP'], NO_JOURNAL)).stderr).toBe('✓ created label 4\n');
    expect((await api.run(['labels', 'update', '4', '--name', 'Gold'], NO_JOURNAL)).stderr).toBe('✓ updated label 4\n');
    const deleted = await api.run(['labels', 'delete', '4', '--yes'], NO_JOURNAL);
    expect(deleted).toMatchObject({ code: 0, stdout: '', stderr: '✓ deleted label 4\n' });
  });

  it('contacts delete --from - --yes: the count, in one line', async () => {
    // The change journal's read of the workspace: the contacts' before-images.
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(200, page([contact(7), contact(8)], 1, 1, 1, 2), JSON_HEADERS);
    for (const id of [7, 8]) {
      api.pool
        .intercept({ path: `${WSP}/contacts/${id}`, method: 'DELETE' })
        .reply(200, { message: 'Contact deleted successfully.', status: 200 }, JSON_HEADERS);
    }
    const { code, stderr } = await api.run(['contacts', 'delete', '--from', '-', '--yes'], { stdin: '7\n8\n' });
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: '✓ deleted 2 of the 2 contacts read from standard input: 0 already gone, 0 failed\n',
    });
  });

  it('profile set and profile use, which change only the config file', async () => {
    expect((await api.run(['profile', 'set', 'workspace', WS, '--profile', 'ci'])).stderr).toBe('✓ set workspace in profile "ci"\n');
    expect((await api.run(['profile', 'use', 'ci'])).stderr).toBe('✓ now using profile "ci"\n');
  });

  it('-q silences it (the id alone on stdout), as it silences every message', async () => {
    api.pool
      .intercept({ path: `${WSP}/labels/4`, method: 'DELETE' })
      .reply(200, { status: 200, message: 'Label deleted successfully.' }, JSON_HEADERS);
    expect(await api.run(['labels', 'delete', '4', '--yes', '-q'], NO_JOURNAL)).toMatchObject({ code: 0, stdout: '4\n', stderr: '' });
  });

  it('a read says nothing on stderr: only what changed something is reported', async () => {
    api.pool
      .intercept({ path: (p: string) => p.startsWith(`${WSP}/labels`), method: 'GET' })
      .reply(200, page([label(4, 'VIP')]), JSON_HEADERS);
    expect(await api.run(['labels', 'list'])).toMatchObject({ code: 0, stderr: '' });
  });
});
