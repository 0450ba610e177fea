// A delete on a terminal reads what the server says the caller may do (GET /me) before asking:
// a role lacking the delete's permission is refused at once (exit 3, one line, nothing asked or
// sent); any answer that cannot say (another shape, a refusal of its own, the workspace missing)
// leaves the question as it was, and the server decides.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../helpers.js';
import { JSON_HEADERS, WSP, contact, label, meHolds, setupApi, stamp, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const onTerminal = (args: string[], confirm: boolean[] = []) => {
  const prompter = scriptedPrompter({ confirm });
  return api.run(args, { stdinTTY: true, prompter }).then((result) => ({ ...result, asked: prompter.asked }));
};

const me = (workspaces: unknown) => ({ data: { id: 5, name: 'Dee', email: 'dee@example.com', partner: false, workspaces, ...stamp } });

describe('a role the server says may not delete', () => {
  it.each([
    [['contacts', 'delete', '7'], 'contacts', 'contacts.delete'],
    [['labels', 'delete', '4'], 'labels', 'labels.delete'],
    [['templates', 'delete', '11'], 'templates', 'templates.delete'],
    [['imports', 'delete', '3'], 'imports', 'contact_imports.delete'],
    [['fields', 'delete', '2'], 'fields', 'contact_fields.delete'],
  ])('wsm %j: exit 3 and one line, nothing asked or sent', async (args, things, permission) => {
    meHolds(api, ['contacts.view', 'labels.view', 'templates.view']);
    const { code, stdout, stderr, asked } = await onTerminal(args, [true]);
    expect({ code, stdout, stderr, asked }).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: your role may not delete ${things} (it lacks ${permission}): nothing was changed\n`,
      asked: [],
    });
    // No interceptor for the record or its DELETE: a request for either would fail the run with exit 1.
  });

  it('-o json: the one error document, exit 3', async () => {
    meHolds(api, []);
    const { code, stdout } = await onTerminal(['labels', 'delete', '4', '-o', 'json']);
    expect(code).toBe(3);
    expect(JSON.parse(stdout).error).toMatchObject({ exit_code: 3, message: expect.stringContaining('your role may not delete labels') });
  });
});

describe('where the server cannot say, the question is asked as before', () => {
  it.each([
    ['a /me without permissions', 200, me([{ id: '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f', name: 'Main', role: null }])],
    ['a /me not listing this workspace', 200, me([{ id: '00000000-0000-4000-8000-000000000000', name: 'Other', permissions: [] }])],
    ['a /me of another shape', 200, { user: { id: 5 } }],
    ['a /me refusing in its own way', 403, { message: 'This action is unauthorized.' }],
    ['no /me (405)', 405, { message: 'Method not allowed.' }],
  ])('%s', async (_, status, body) => {
    api.pool.intercept({ path: '/api/v3/me', method: 'GET' }).reply(status, body, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/labels/4`, method: 'GET' }).reply(200, { data: label(4, 'Old') }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/labels/4`, method: 'DELETE' })
      .reply(200, { message: 'Label deleted successfully.', status: 200 }, JSON_HEADERS);
    const { code, asked } = await onTerminal(['labels', 'delete', '4', '--no-color'], [true]);
    expect({ code, asked: asked.length }).toEqual({ code: 0, asked: 1 });
  });

  it('with --yes no permission is read first: the server answers the delete itself (the change journal reads only the contact)', async () => {
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7) }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'DELETE' })
      .reply(403, { message: 'This action is unauthorized.' }, JSON_HEADERS);
    const { code, stderr, asked } = await onTerminal(['contacts', 'delete', '7', '--yes']);
    expect({ code, stderr, asked }).toEqual({ code: 3, stderr: 'error: your role may not delete contacts\n', asked: [] });
  });

  it('a role holding the permission is asked, naming the record', async () => {
    meHolds(api, ['contacts.view', 'contacts.delete']);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7, { name: 'Ann Lee' }) }, JSON_HEADERS);
    const { code, asked } = await onTerminal(['contacts', 'delete', '7'], [false]);
    expect({ code, asked }).toEqual({
      code: 2,
      asked: ['Delete contact Ann Lee (id 7, 14155550007)? wsm undo can make it again, with a new id and all its values'],
    });
  });
});
