// A split verb is three functions: `parse` reads the command line alone, `run` calls the client and
// returns data (printing none of it), `render` prints it. These tests call them one at a time: parse
// on argv alone, run against a fake client that records what it was asked, and the output path
// only where render is the point.
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { AuthenticationError, NotFoundError, UnprocessableEntityError } from '../../src/api/errors.js';
import type { Context } from '../../src/cli/context.js';
import { describeError } from '../../src/cli/error-report.js';
import { FieldsNamedError, RejectedTemplatesError, UsageError } from '../../src/cli/errors.js';
import { createTestIO, type TestIO, type TestIOOptions } from '../../src/cli/io.js';
import { createOutput, type OutputFormat } from '../../src/cli/output.js';
import { COLLECTIONS } from '../../src/commands/collections.js';
import * as createUser from '../../src/commands/users/create.js';
import * as getUser from '../../src/commands/users/get.js';
import * as updateUser from '../../src/commands/users/update.js';
import * as sync from '../../src/commands/templates/sync.js';
import * as pull from '../../src/commands/workspace-file/pull.js';
import { uploadData, type UploadResult } from '../../src/commands/imports/upload.js';
import { parseUpload } from '../../src/commands/imports/upload-flags.js';
import { collectionVerb } from '../../src/commands/shared/crud.js';
import * as api from '../../src/commands/api/request.js';
import * as setProfile from '../../src/commands/profile/set.js';
import * as updateContact from '../../src/commands/contacts/update.js';
import * as updateOne from '../../src/commands/contacts/update-one.js';
import * as updateMany from '../../src/commands/contacts/update-many.js';
import * as deleteContact from '../../src/commands/contacts/delete.js';
import * as deleteOne from '../../src/commands/contacts/delete-one.js';
import * as deleteMany from '../../src/commands/contacts/delete-many.js';
import * as logout from '../../src/commands/auth/logout.js';
import * as exportContacts from '../../src/commands/contacts/export.js';
import type { ExportTarget } from '../../src/commands/contacts/export-target.js';
import * as serve from '../../src/commands/serve/run.js';
import * as mcp from '../../src/commands/mcp/run.js';
import { openConfig } from '../../src/cli/config.js';
import { tempDir } from './helpers.js';

const WS = '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f';

/** A Context around a fake client: what a run needs (the workspace, the client, the output path), and the streams to read. */
function fakeContext(
  client: object,
  format: OutputFormat = 'table',
  streams: TestIOOptions = {},
): { ctx: Context; io: TestIO; asked: string[] } {
  const io = createTestIO(streams);
  const asked: string[] = [];
  const globals = { output: format, color: false, quiet: false, verbose: false, yes: true };
  const ctx = {
    io,
    // A run's fake has no config folder to keep a change journal in.
    env: { WSM_HISTORY: 'off' },
    globals,
    output: createOutput(io, { format, quiet: false }),
    workspace: async () => WS,
    client: async () => client,
    // --yes is given: a question is recorded, and answered yes.
    confirm: async (question: string) => void asked.push(question),
  } as unknown as Context;
  return { ctx, io, asked };
}

const rejected = (errors: Record<string, string[]>) =>
  new UnprocessableEntityError({
    status: 422,
    body: { message: 'The given data was invalid.', errors },
    headers: {},
    method: 'POST',
    url: `http://api.test/api/v3/workspaces/${WS}/users`,
  });

describe('users create', () => {
  it('parses the command line alone: the body, and whether the password is to be asked', () => {
    expect(createUser.parse({ args: [], opts: { name: 'Ann Lee', email: 'ann@example.com', password: 'secret-pass', role: '2' } })).toEqual(
      {
        body: { name: 'Ann Lee', email: 'ann@example.com', password: 'secret-pass', role_id: 2 },
        askPassword: false,
      },
    );
    expect(
      createUser.parse({ args: [], opts: { name: 'Bot', email: 'bot@example.com', password: true, role: '3', timezone: 'Europe/Lisbon' } }),
    ).toEqual({
      body: { name: 'Bot', email: 'bot@example.com', password: '', role_id: 3, timezone: 'Europe/Lisbon' },
      askPassword: true,
    });
    expect(() => createUser.parse({ args: [], opts: { name: 'Ann', email: 'a@example.com', password: 'x', role: 'admin' } })).toThrow(
      new UsageError('--role takes a positive integer, got "admin"'),
    );
  });

  it('run sends the body and returns the answer, printing nothing', async () => {
    const sent: unknown[] = [];
    const user = { id: 7, name: 'Ann Lee', email: 'ann@example.com' };
    const { ctx, io } = fakeContext({
      users: { create: async (body: unknown) => (sent.push(body), { data: user, body: { data: user } }) },
    });
    const answer = await createUser.run(ctx, {
      body: { name: 'Ann Lee', email: 'ann@example.com', password: 'long-enough', role_id: 2 },
      askPassword: false,
    });
    expect(sent).toEqual([{ name: 'Ann Lee', email: 'ann@example.com', password: 'long-enough', role_id: 2 }]);
    expect(answer.data).toEqual(user);
    expect(io.stdoutText).toBe('');
    expect(io.stderrText).toBe('');
  });

  it("a 422 carries the flags' names for its fields: the printer needs no side channel", async () => {
    const { ctx } = fakeContext({
      users: { create: async () => Promise.reject(rejected({ role_id: ['The selected role id is invalid.'] })) },
    });
    const failure = await createUser
      .run(ctx, { body: { name: 'Ann', email: 'ann@example.com', password: 'long-enough', role_id: 99 }, askPassword: false })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FieldsNamedError);
    const report = describeError(failure, { env: {}, secrets: () => [] });
    expect(report.code).toBe(5);
    expect(report.text).toBe('error: the server rejected the user:\n  --role: The selected role id is invalid.\n');
  });

  it("a bad body is refused once, by the client's check: exit 2, its fields named by flag, no request made", async () => {
    // The verb hands the body to the client as given: it checks nothing itself.
    const handed: unknown[] = [];
    const body = { name: 'Ann', email: 'not-an-address', password: 'long-enough', role_id: 2 };
    const fake = fakeContext({ users: { create: async (given: unknown) => (handed.push(given), { data: { id: 1 } }) } });
    await createUser.run(fake.ctx, { body, askPassword: false });
    expect(handed).toEqual([body]);
    // The real client refuses it before sending: the agent, which answers any request, records none.
    const agent = new MockAgent();
    agent.disableNetConnect();
    const requests: string[] = [];
    const pool = agent.get('http://api.test');
    pool
      .intercept({ path: () => true, method: () => true })
      .reply((request) => (requests.push(`${request.method} ${request.path}`), { statusCode: 201, data: { data: { id: 1, name: 'Ann' } } }))
      .persist();
    const client = createClient({ baseUrl: 'http://api.test/api/v3', workspace: WS, dispatcher: agent, maxRetries: 0 });
    const failure = await createUser.run(fakeContext(client).ctx, { body, askPassword: false }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FieldsNamedError);
    const report = describeError(failure, { env: {}, secrets: () => [] });
    expect(report.code).toBe(2);
    expect(report.text).toBe('error: the user is invalid: nothing was sent\n  --email: The email field must be a valid email address.\n');
    expect(requests).toEqual([]);
    // Control: the same body made valid is sent, once.
    await createUser.run(fakeContext(client).ctx, { body: { ...body, email: 'ann@example.com' }, askPassword: false });
    expect(requests).toEqual([`POST /api/v3/workspaces/${WS}/users`]);
    await agent.close();
  });
});

describe('users get and update', () => {
  it('get: the id from argv, then the record from the client', async () => {
    expect(getUser.parse({ args: ['7'], opts: {} })).toBe(7);
    expect(() => getUser.parse({ args: ['x'], opts: {} })).toThrow('user id must be a positive integer, got "x"');
    const { ctx } = fakeContext({ users: { get: async (id: number) => ({ data: { id, name: 'Ann' } }) } });
    expect(await getUser.run(ctx, 7)).toEqual({ id: 7, name: 'Ann' });
  });

  it('update: conflicting and missing flags are refused by parse alone', () => {
    expect(() => updateUser.parse({ args: ['7'], opts: { active: true, inactive: true } })).toThrow(
      '--active and --inactive cannot be used together',
    );
    expect(() => updateUser.parse({ args: ['7'], opts: {} })).toThrow(/^nothing to update: pass at least one of --name, --email/);
    expect(updateUser.parse({ args: ['7'], opts: { inactive: true, client: false, password: 'new-secret', role: '4' } })).toEqual({
      id: 7,
      body: { status: false, client: false, role_id: 4, password: 'new-secret', confirm_password: 'new-secret' },
      askPassword: false,
    });
  });
});

describe('a plain collection (labels)', () => {
  it('create and update bodies come from argv through the entry in collections.ts; run calls the client', async () => {
    const create = await collectionVerb('labels', COLLECTIONS.labels, 'create');
    const options = await create.parse!({ args: ['urgent'], opts: { color: '#ff0000' } }, {} as Context);
    expect(options).toEqual({ body: { name: 'urgent', color: '#ff0000' } });
    const calls: unknown[] = [];
    const { ctx } = fakeContext({
      labels: { create: async (body: unknown) => (calls.push(body), { data: { id: 4, ...(body as object) }, body: {} }) },
    });
    expect(await create.run(ctx, options)).toMatchObject({ data: { id: 4, name: 'urgent', color: '#ff0000' } });
    expect(calls).toEqual([{ name: 'urgent', color: '#ff0000' }]);

    const update = await collectionVerb('labels', COLLECTIONS.labels, 'update');
    expect(() => update.parse!({ args: ['4'], opts: {} }, {} as Context)).toThrow(
      'nothing to update: pass at least one of --name, --color',
    );
  });

  it('list --all returns the walk, which runs only when rendered', async () => {
    const list = await collectionVerb('labels', COLLECTIONS.labels, 'list');
    const { ctx, io } = fakeContext(
      {
        labels: {
          // The page object: --all reads its pages, never the page itself.
          list: () => ({
            pages: async function* () {
              yield { data: [{ id: 1, name: 'a', color: '#000000' }], meta: {} };
              yield { data: [{ id: 2, name: 'b', color: '#ffffff' }], meta: {} };
            },
          }),
        },
      },
      'ndjson',
    );
    const flags = await list.parse!({ args: [], opts: { all: true } }, ctx);
    const listing = await list.run(ctx, flags);
    expect(io.stdoutText).toBe('');
    await list.render!(ctx, listing, flags);
    expect(io.stdoutText).toBe('{"id":1,"name":"a","color":"#000000"}\n{"id":2,"name":"b","color":"#ffffff"}\n');
  });
});

describe('templates sync', () => {
  it('parse: each template id once, read from the flags; a bad one is exit 2', async () => {
    const { ctx } = fakeContext({});
    const options = await sync.parse({ args: [], opts: { template: ['3', '3', '4'], wait: true, timeout: '2m', interval: '1s' } }, ctx);
    expect(options).toMatchObject({ wait: true, failOnRejected: false, timeoutMs: 120_000, intervalMs: 1000, tracked: ['3', '4'] });
    await expect(sync.parse({ args: [], opts: { template: ['x'] } }, ctx)).rejects.toThrow('--template takes a positive integer, got "x"');
  });

  it("run returns the sync's answer; settle decides the exit from the rows", async () => {
    const { ctx, io } = fakeContext({
      templates: { sync: async () => ({ success: true, nothing_pending: false, message: 'Synced 2 templates.' }) },
    });
    const options = await sync.parse({ args: [], opts: {} }, ctx);
    const result = await sync.run(ctx, options);
    expect(result).toEqual({ answer: { success: true, nothing_pending: false, message: 'Synced 2 templates.' } });
    expect(io.stdoutText).toBe('');
    const rows = [{ id: 3, name: 'welcome', language: 'en', status: 'REJECTED', rejection_reason: 'too promotional' }];
    expect(() => sync.settle(ctx, { rows, deleted: [] }, { ...options, failOnRejected: true })).toThrow(RejectedTemplatesError);
    expect(() => sync.settle(ctx, { rows, deleted: [] }, options)).not.toThrow();
  });
});

describe('pull and the import upload: parse alone', () => {
  it('pull: the format from -o, else from the file name', () => {
    const ctx = (output: string) => ({ globals: { output } }) as unknown as Context;
    expect(pull.parse({ args: [], opts: {} }, ctx('table'))).toEqual({ format: 'yaml' });
    expect(pull.parse({ args: [], opts: { file: 'ws.json' } }, ctx('table'))).toEqual({ format: 'json', file: 'ws.json' });
    expect(pull.parse({ args: [], opts: { file: 'ws.json' } }, ctx('yaml'))).toEqual({ format: 'yaml', file: 'ws.json' });
    expect(() => pull.parse({ args: [], opts: {} }, ctx('csv'))).toThrow('wsm pull prints yaml or json, not csv');
  });

  it('upload: the file and flags; the data it returns is the import record, else the answer as it came', () => {
    expect(parseUpload({ args: ['leads.csv'], opts: { group: '3', wait: true } })).toMatchObject({
      file: 'leads.csv',
      group: 3,
      wait: true,
      dryRun: false,
      strict: false,
    });
    expect(() => parseUpload({ args: ['leads.csv'], opts: { group: 'vip' } })).toThrow('--group takes a positive integer, got "vip"');
    const record = { id: 8, status: 'completed' } as unknown as NonNullable<UploadResult['import']>;
    expect(uploadData({ import: record })).toBe(record);
    expect(uploadData({ answer: { success: true } })).toEqual({ success: true });
    expect(uploadData({})).toBeNull();
  });
});

describe('wsm api and profile set: parse alone, then what run returns', () => {
  it('api: the method is checked by parse; a refusal is data, its exit comes after the body', async () => {
    expect(() => api.parse({ args: ['FETCH', '/me'], opts: {} })).toThrow(
      'unknown method "FETCH": use one of GET, POST, PUT, PATCH, DELETE',
    );
    expect(api.parse({ args: ['get', '/workspaces/{workspace}/labels'], opts: { field: ['per_page=5'] } })).toEqual({
      method: 'GET',
      path: '/workspaces/{workspace}/labels',
      field: ['per_page=5'],
    });
    const refusal = new UnprocessableEntityError({
      status: 422,
      body: { message: 'Invalid.', errors: { name: ['Required.'] } },
      headers: {},
      method: 'POST',
      url: 'http://api.test/api/v3/x',
    });
    const asked: unknown[] = [];
    const { ctx, io } = fakeContext({ request: async (...call: unknown[]) => (asked.push(call), Promise.reject(refusal)) });
    const result = await api.run(ctx, { method: 'POST', path: '/workspaces/{workspace}/labels', field: ['name='] });
    expect(asked).toEqual([['POST', `/workspaces/${WS}/labels`, { query: undefined, json: { name: '' } }]]);
    expect(result).toEqual({ refused: refusal });
    expect(io.stdoutText).toBe('');
    api.render(ctx, result);
    expect(JSON.parse(io.stdoutText)).toEqual({ message: 'Invalid.', errors: { name: ['Required.'] } });
    expect(() => api.settle(ctx, result)).toThrow(refusal);
  });

  it('profile set: the key and value are checked, and the value normalised, before the config is opened', () => {
    expect(setProfile.parse({ args: ['base-url', 'http://127.0.0.1:8080/api/v3/'], opts: {} })).toEqual({
      key: 'base-url',
      field: 'base_url',
      value: 'http://127.0.0.1:8080/api/v3',
    });
    expect(() => setProfile.parse({ args: ['colour', 'red'], opts: {} })).toThrow(
      'unknown key "colour": use one of base-url, workspace, token',
    );
    expect(() => setProfile.parse({ args: ['workspace', 'acme'], opts: {} })).toThrow('workspace "acme" is not a UUID');
  });
});

const statusError = <E>(
  Kind: new (init: ConstructorParameters<typeof NotFoundError>[0]) => E,
  status: number,
  message: string,
  id: number,
) =>
  new Kind({
    status,
    body: { message },
    headers: {},
    method: 'DELETE',
    url: `http://api.test/api/v3/workspaces/${WS}/contacts/${id}`,
  });

describe('contacts update and delete, one contact or many (--from)', () => {
  it('parse: the command line chooses the module of one contact or of many (--from); each parses its own form', async () => {
    const { ctx } = fakeContext({});
    expect(await updateContact.parse({ args: ['42'], opts: { inactive: true } }, ctx)).toEqual({
      verb: updateOne,
      options: { id: 42, flags: { inactive: true } },
    });
    expect(await updateContact.parse({ args: [], opts: { from: '-', inactive: true, concurrency: '3', strict: true } }, ctx)).toEqual({
      verb: updateMany,
      options: { kind: 'update', from: '-', dryRun: false, flags: { status: false }, concurrency: 3, applyFlagged: false, strict: true },
    });
    expect(await deleteContact.parse({ args: ['12'], opts: {} }, ctx)).toEqual({ verb: deleteOne, options: 12 });
    expect(await deleteContact.parse({ args: [], opts: { from: 'ids.txt', dryRun: true, maxFailures: '1%' } }, ctx)).toEqual({
      verb: deleteMany,
      options: {
        kind: 'delete',
        from: 'ids.txt',
        dryRun: true,
        concurrency: 8,
        maxFailures: { share: 0.01, text: '1%' },
        applyFlagged: false,
        strict: false,
      },
    });
    await expect(updateContact.parse({ args: ['42'], opts: { from: 'ids.txt' } }, ctx)).rejects.toThrow(
      'give one contact id or --from, not both',
    );
    expect(() => updateMany.parse({ args: [], opts: { from: '-', avatar: 'a.png' } }, ctx)).toThrow(
      '--avatar goes with one contact id, not --from',
    );
    expect(() => updateOne.parse({ args: ['42'], opts: { dryRun: true } })).toThrow('--dry-run goes with --from');
    expect(() => updateOne.parse({ args: ['42'], opts: { strict: true } })).toThrow('--strict goes with --from');
    expect(() => deleteOne.parse({ args: ['42'], opts: { strict: true } })).toThrow('--strict goes with --from');
    expect(() => updateMany.parse({ args: [], opts: { from: 'ids.txt', sheet: 'March' } }, ctx)).toThrow(
      '--sheet names a sheet of an .xlsx workbook; ids.txt is not one',
    );
    expect(() => deleteOne.parse({ args: [], opts: {} })).toThrow('give a contact id, or --from <file|-> for many');
    expect(() => deleteMany.parse({ args: [], opts: { from: '-', concurrency: '0' } }, ctx)).toThrow(
      '--concurrency takes a whole number from 1 to 64, got "0"',
    );
  });

  it('update one: run reads the name the API needs, sends the body and returns the answer, printing nothing', async () => {
    const sent: unknown[] = [];
    const contact = { id: 42, number: '+14155550123', name: 'Ann Lee', status: false, contact_groups: [] };
    const { ctx, io } = fakeContext({
      contacts: {
        get: async (id: number) => ({ data: { ...contact, id, status: true } }),
        update: async (...call: unknown[]) => (sent.push(call), { data: contact, body: { data: contact } }),
      },
    });
    const result = await updateOne.run(ctx, updateOne.parse({ args: ['42'], opts: { inactive: true } }));
    expect(sent).toEqual([[42, { status: false, name: 'Ann Lee' }, { avatar: undefined }]]);
    expect(result).toEqual({ id: 42, answer: { data: contact, body: { data: contact } }, body: { status: false, name: 'Ann Lee' } });
    expect(io.stdoutText + io.stderrText).toBe('');
  });

  it('delete --from: run reads, asks, then starts the requests; render prints a line as each ends; settle says what was done and exits 8', async () => {
    const deleted: number[] = [];
    const client = {
      contacts: {
        delete: async (given: string) => {
          const id = Number(given);
          deleted.push(id);
          if (id === 9) throw statusError(NotFoundError, 404, 'Contact not found.', id);
          if (id === 5) throw statusError(UnprocessableEntityError, 422, 'The contact is in use.', id);
          return { message: 'Contact deleted successfully.' };
        },
      },
    };
    const { ctx, io, asked } = fakeContext(client, 'ndjson', { stdin: '3\n9\n5\n' });
    const options = deleteMany.parse({ args: [], opts: { from: '-' } }, ctx);
    const deletedWhenAsked: number[][] = [];
    const confirm = ctx.confirm;
    ctx.confirm = async (question, action) => (deletedWhenAsked.push([...deleted]), confirm(question, action));
    const result = await deleteMany.run(ctx, options);
    expect(asked).toEqual(['Delete all 3 contacts read from standard input? This cannot be undone (WSM_HISTORY=off keeps no journal)']);
    expect(deletedWhenAsked).toEqual([[]]);
    // Run made the requests (three fit in one window); render only prints what they left.
    expect([...deleted].sort()).toEqual([3, 5, 9]);
    expect(io.stdoutText).toBe('');

    await deleteMany.render(ctx, result);
    expect(deleted).toHaveLength(3);
    expect(
      io.stdoutText
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { id: 3, outcome: 'deleted', status: 200, message: 'Contact deleted successfully.' },
      { id: 9, outcome: 'already gone', status: 404, message: 'Contact not found.' },
      { id: 5, outcome: 'failed', status: 422, message: 'The contact is in use.' },
    ]);
    const failure = (() => {
      try {
        deleteMany.settle(ctx, result, options);
      } catch (error) {
        return error;
      }
    })();
    expect(describeError(failure, { env: {}, secrets: () => [] })).toMatchObject({ code: 8, text: 'error: 1 of 3 failed\n' });
    // What was done is said before the failure: deleted, already gone, failed, of how many read.
    const summary = '✓ deleted 1 of the 3 contacts read from standard input: 1 already gone, 1 failed\n';
    expect(io.stderrText).toBe(summary);

    // Within --max-failures the same run says what it did, then the failures it tolerated.
    const tolerant = deleteMany.parse({ args: [], opts: { from: '-', maxFailures: '1' } }, ctx);
    deleteMany.settle(ctx, result, tolerant);
    expect(io.stderrText).toBe(`${summary}${summary}warning: 1 of 3 failed (tolerated: --max-failures 1)\n`);
  });

  it('update --from --dry-run: run returns the plan against the live contacts, nothing sent; settle says so', async () => {
    const live = [
      { id: 3, number: '+14155550123', name: 'Ann', email: null, status: true, contact_groups: [] },
      { id: 4, number: '+14155550124', name: 'Bo', email: null, status: true, contact_groups: [] },
    ];
    const { ctx, io } = fakeContext(
      {
        contacts: {
          // Awaited, a list is its first page (the size check a plan starts with); iterated, every row.
          list: () => ({
            rows: async function* () {
              yield* live;
            },
            // biome-ignore lint/suspicious/noThenProperty: the client's page list is awaitable.
            then: (resolve: (page: unknown) => unknown) => resolve({ data: live, meta: { total: live.length } }),
          }),
          update: async () => expect.unreachable('a dry run sends nothing'),
        },
      },
      'json',
      { stdin: 'id,name\n3,Ann Lee\n4,Bo\n' },
    );
    const options = updateMany.parse({ args: [], opts: { from: '-', dryRun: true } }, ctx);
    const result = await updateMany.run(ctx, options);
    expect(result).toMatchObject({
      plan: {
        update: 1,
        unchanged: 1,
        contacts: [
          { place: 'line 2', action: 'update', id: 3, changes: { name: { from: 'Ann', to: 'Ann Lee' } } },
          { place: 'line 3', action: 'unchanged', id: 4, changes: {} },
        ],
      },
    });
    expect(io.stdoutText).toBe('');
    await updateMany.render(ctx, result);
    expect(JSON.parse(io.stdoutText)).toMatchObject({ update: 1, unchanged: 1 });
    expect(io.stderrText).toBe('');
    // A closing line for a person: on a terminal only, like every message.
    const terminal = fakeContext({}, 'json', { stderrTTY: true });
    updateMany.settle(terminal.ctx, result, options);
    expect(terminal.io.stderrText).toBe('Dry run: nothing was sent.\n');
  });
});

describe('auth logout', () => {
  it('run forgets the token (revoked on the server with --revoke) and returns what it did; render says it', async () => {
    const dir = await tempDir();
    try {
      const config = await openConfig({ dir: dir.dir });
      const server = 'http://127.0.0.1:9/api/v3';
      config.setProfile('ci', { base_url: server, token: 'tok-shared-123' });
      config.setProfile('laptop', { base_url: server, token: 'tok-shared-123' });
      config.setProfile('other', { base_url: server, token: 'tok-other-456' });
      const revoked: unknown[] = [];
      let answer: () => Promise<unknown> = async () => undefined;
      const { ctx, io } = fakeContext({});
      Object.assign(ctx, {
        env: { WSM_TOKEN: 'from-env' },
        config: async () => config,
        settings: async () => ({ profileName: ctx.globals.profile ?? 'ci', baseUrl: server }),
        clientFor: async (settings: unknown) => ({ auth: { revokeCurrentToken: () => (revoked.push(settings), answer()) } }),
      });
      expect(logout.parse({ args: [], opts: { revoke: true } })).toEqual({ revoke: true });

      const result = await logout.run(ctx, { revoke: true });
      expect(result).toEqual({ profileName: 'ci', outcome: 'revoked', others: ['laptop'], envToken: true });
      expect(revoked).toEqual([{ baseUrl: server, token: 'tok-shared-123' }]);
      expect(config.getProfile('ci')).toEqual({ base_url: server });
      expect(config.getProfile('laptop')?.token).toBe('tok-shared-123');
      expect(io.stdoutText + io.stderrText).toBe('');
      logout.render(ctx, result);
      expect(io.stdoutText).toBe('');
      expect(io.stderrText).toBe(
        '✓ logged out: revoked the token on the server and removed it from profile "ci"\n' +
          'warning: profile "laptop" held the same token: it will be refused until logged in again (`wsm auth login --profile laptop`)\n' +
          'warning: WSM_TOKEN is still set in the environment and will keep being used\n',
      );

      // A token the server no longer accepts is forgotten all the same; the others are not named (nothing was revoked).
      answer = async () => Promise.reject(statusError(AuthenticationError, 401, 'Unauthenticated.', 0));
      ctx.globals.profile = 'laptop';
      expect(await logout.run(ctx, { revoke: true })).toMatchObject({ profileName: 'laptop', outcome: 'rejected', others: [] });
      ctx.globals.profile = 'other';
      expect(await logout.run(ctx, { revoke: false })).toMatchObject({ outcome: 'forgotten' });
      expect(await logout.run(ctx, { revoke: false })).toMatchObject({ outcome: 'no-token' });
      expect(revoked).toHaveLength(2);
    } finally {
      await dir.cleanup();
    }
  });
});

describe('contacts export', () => {
  /** The workspace's contacts, three pages of them, the last failing when asked to. */
  function exportClient(failLastPage = false) {
    const contact = (id: number) => ({
      id,
      number: `+1415555000${id}`,
      name: `Person ${id}`,
      contact_groups: [],
      fields: { city: 'Lisbon' },
    });
    const queries: unknown[] = [];
    return {
      queries,
      contacts: {
        list: (query: unknown) => (
          queries.push(query),
          {
            pages: async function* () {
              yield { data: [contact(1), contact(2)], meta: {} };
              if (failLastPage) throw new Error('the server closed the connection');
              yield { data: [contact(3)], meta: {} };
            },
          }
        ),
      },
      fields: {
        list: async function* () {
          yield { name: 'city' };
        },
      },
    };
  }

  /** A target that keeps what it is given, as stdout or a file would. */
  function keepingTarget() {
    const kept = { header: [] as string[], ids: [] as unknown[], finished: false, abandoned: false };
    const target: ExportTarget = {
      async write(columns, pages) {
        kept.header = columns.map((column) => column.key);
        for await (const page of pages) kept.ids.push(...page.map((contact) => contact.id));
      },
      finish: () => void (kept.finished = true),
      abandon: () => void (kept.abandoned = true),
    };
    return { kept, open: () => target };
  }

  it('run reads every page through the target live gives it and returns how many it wrote; render says so', async () => {
    const client = exportClient();
    const { ctx, io } = fakeContext(client);
    const options = exportContacts.parse({ args: [], opts: { search: 'Person' } });
    const { kept, open } = keepingTarget();
    const result = await exportContacts.run(ctx, options, open);
    expect(result).toEqual({ count: 3 });
    expect(client.queries).toEqual([{ search: 'Person' }]);
    expect(kept).toEqual({
      header: ['id', 'number', 'name', 'email', 'gender', 'status', 'contact_groups', 'created_at', 'updated_at', 'city'],
      ids: [1, 2, 3],
      finished: true,
      abandoned: false,
    });
    expect(io.stdoutText + io.stderrText).toBe('');
    // A closing line for a person: on a terminal only, like every message.
    const terminal = fakeContext({}, 'table', { stderrTTY: true });
    exportContacts.render(terminal.ctx, result);
    expect(terminal.io.stderrText).toBe('Exported 3 contacts.\n');
  });

  it('a page failing part way leaves the target as it was and says how many contacts were written', async () => {
    const { ctx } = fakeContext(exportClient(true));
    const { kept, open } = keepingTarget();
    const failure = await exportContacts.run(ctx, {}, open).catch((error: unknown) => error);
    expect(kept).toMatchObject({ ids: [1, 2], finished: false, abandoned: true });
    expect(describeError(failure, { env: {}, secrets: () => [] })).toMatchObject({
      code: 1,
      text: 'error: the server closed the connection; 2 contacts were written: the output is incomplete\n',
    });
  });
});

describe('serve and mcp: parse alone, and what live says once they listen', () => {
  const serveDefaults = { host: '127.0.0.1', port: '8080', approvalDelay: '5s' } as const;

  it("serve: the flags in the user's words, the seeded workspace and the profile from the global flags", () => {
    const { ctx } = fakeContext({});
    expect(serve.parse({ args: [], opts: { ...serveDefaults, db: ':memory:', cors: ['http://localhost:5173/'] } }, ctx)).toEqual({
      server: {
        host: '127.0.0.1',
        port: 8080,
        db: ':memory:',
        adminToken: undefined,
        workspace: undefined,
        approvalDelayMs: 5000,
        providerFault: undefined,
        logger: false,
        apiOnly: false,
        corsOrigins: ['http://localhost:5173'],
      },
      profileName: 'local',
      // A throwaway database leaves no profile behind unless --profile names one.
      saveProfile: false,
    });
    expect(() => serve.parse({ args: [], opts: { ...serveDefaults, port: '99999' } }, ctx)).toThrow(
      '--port takes a whole number from 0 to 65535, got "99999"',
    );
    expect(() => serve.parse({ args: [], opts: { ...serveDefaults, providerFault: 'flaky' } }, ctx)).toThrow(
      '--provider-fault takes one of unavailable, credentials, timeout, got "flaky"',
    );
    Object.assign(ctx, { env: { WSM_CORS: 'http://a.test,ftp://b.test' } });
    expect(() => serve.parse({ args: [], opts: serveDefaults }, ctx)).toThrow(
      'WSM_CORS takes an origin such as http://localhost:5173 (scheme, host and port, no path) or *, got "ftp://b.test"',
    );
    Object.assign(ctx, { env: {}, globals: { ...ctx.globals, workspace: 'acme', profile: 'dev' } });
    expect(() => serve.parse({ args: [], opts: serveDefaults }, ctx)).toThrow(
      '-w/--workspace takes the UUID of the workspace to seed, got "acme"',
    );
    Object.assign(ctx, { globals: { ...ctx.globals, workspace: WS } });
    expect(serve.parse({ args: [], opts: serveDefaults }, ctx)).toMatchObject({ server: { workspace: WS }, profileName: 'dev' });
  });

  const started = {
    url: 'http://127.0.0.1:8080/api/v3',
    workspaceId: WS,
    profileName: 'my dev' as string | undefined,
    token: 'wsm_minted_token',
    corsOrigins: ['http://localhost:5173', 'http://127.0.0.1:3000'],
    newToken: true,
    replaced: 'http://127.0.0.1:9090/api/v3',
    apiOnly: true,
  };

  it('serve: live says where it listens on stdout, then the profile, the token (on a terminal) and the origins --cors allows on stderr', () => {
    const { ctx, io } = fakeContext({}, 'table', { stderrTTY: true });
    serve.live(ctx).started({ ...started, replaced: undefined });
    expect(io.stdoutText).toBe('Listening on http://127.0.0.1:8080/api/v3\n');
    expect(io.stderrText).toBe(
      `Workspace ${WS}; profile "my dev" saved; admin token: wsm_minted_token (\`wsm auth token --profile 'my dev'\` prints it again)\n` +
        'Browsers may call it from http://localhost:5173, http://127.0.0.1:3000\n' +
        'Published API only: every extension answers 404\n',
    );
  });

  it('serve: piped (a CI log), a minted token is never printed: the command that prints it is', () => {
    const { ctx, io } = fakeContext({});
    serve.live(ctx).started({ ...started, apiOnly: false, corsOrigins: [] });
    expect(io.stderrText).toBe(
      'warning: replacing profile "my dev" (was http://127.0.0.1:9090/api/v3, where a server still answers): pass --profile <name> to save this server under another name\n' +
        `Workspace ${WS}; profile "my dev" saved; admin token: \`wsm auth token --profile 'my dev'\` prints it\n`,
    );
    expect(io.stderrText).not.toContain('wsm_minted_token');
  });

  it('serve --db :memory: without --profile: no profile, and the token on a terminal only', () => {
    const throwaway = { ...started, profileName: undefined, replaced: undefined, apiOnly: false, corsOrigins: [] };
    const onTerminal = fakeContext({}, 'table', { stderrTTY: true });
    serve.live(onTerminal.ctx).started(throwaway);
    expect(onTerminal.io.stderrText).toBe(
      `Workspace ${WS}; no profile saved (--db :memory:; --profile <name> saves one); admin token: wsm_minted_token\n`,
    );
    const piped = fakeContext({});
    serve.live(piped.ctx).started(throwaway);
    expect(piped.io.stderrText).toBe(
      `Workspace ${WS}; no profile saved (--db :memory:; --profile <name> saves one); admin token: not printed when piped: pass --admin-token <token> to choose it\n`,
    );
  });

  it('mcp: parse selects the tools and checks the HTTP flags; --list-tools is data from run, a table from render', async () => {
    const { ctx, io } = fakeContext({});
    const options = await mcp.parse({ args: [], opts: { tools: 'contacts.get,contacts.list', listTools: true } });
    expect(options.tools.map((tool) => tool.name)).toEqual(['contacts.get', 'contacts.list']);
    expect(options).toMatchObject({ listTools: true });
    await expect(mcp.parse({ args: [], opts: { host: '0.0.0.0' } })).rejects.toThrow('--host goes with --http');
    await expect(mcp.parse({ args: [], opts: { http: true, authToken: 'short' } })).rejects.toThrow(
      '--auth-token must be at least 16 characters long',
    );
    expect(await mcp.parse({ args: [], opts: { http: true, port: '0', readOnly: true } })).toMatchObject({
      http: { host: '127.0.0.1', port: 0 },
      listTools: false,
    });

    const result = await mcp.run(ctx, options);
    expect(result).toEqual({
      listed: [
        expect.objectContaining({ name: 'contacts.get', access: 'read', confirm: false, published: false }),
        expect.objectContaining({ name: 'contacts.list', access: 'read', confirm: false, published: true }),
      ],
    });
    expect(io.stdoutText).toBe('');
    await mcp.render(ctx, result);
    // Piped: a tab-separated row a tool, no header.
    expect(io.stdoutText.split('\n')).toEqual([
      'contacts.get\tread\tno\twsm serve\tGet a contact',
      expect.stringMatching(/^contacts\.list\tread\tno\tany\t\S/),
      '',
    ]);

    const http = fakeContext({});
    mcp.live(http.ctx).listening({ url: 'http://0.0.0.0:8765/mcp', tokenRequired: true, generatedToken: 'generated-secret' });
    mcp.live(http.ctx).listening({ url: 'http://10.0.0.2:8765/mcp', tokenRequired: true });
    expect(http.io.stdoutText).toBe('Listening on http://0.0.0.0:8765/mcp\nListening on http://10.0.0.2:8765/mcp\n');
    expect(http.io.stderrText).toBe(
      'Bearer token (generated; clients send "Authorization: Bearer <token>"): generated-secret\n' +
        'Clients send the --auth-token given as "Authorization: Bearer <token>"\n',
    );
  });
});
