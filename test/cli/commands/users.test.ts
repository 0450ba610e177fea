import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedPrompter } from '../helpers.js';
import { JSON_HEADERS, WSP, formOf, jsonBodies, page, setupApi, stamp, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi(NO_JOURNAL)));
afterEach(() => api?.close());

const user = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `User ${id}`,
  email: `u${id}@example.com`,
  timezone: 'UTC',
  status: true,
  client: false,
  avatar_url: null,
  role: { id: 2, name: 'agent' },
  ...stamp,
  ...overrides,
});

function acceptUpdate(api: Api, id: number) {
  const seen: { form?: Promise<FormData> } = {};
  api.pool.intercept({ path: `${WSP}/users/${id}`, method: 'POST' }).reply((opts) => {
    seen.form = formOf(opts);
    return {
      statusCode: 200,
      data: JSON.stringify({ status: 200, message: 'User updated successfully.', data: user(id) }),
      responseOptions: JSON_HEADERS,
    };
  });
  return seen;
}

describe('users list / get', () => {
  it('list prints name, email, role and flags', async () => {
    api.pool.intercept({ path: `${WSP}/users?page=2`, method: 'GET' }).reply(200, page([user(7)], 2, 2), JSON_HEADERS);
    const { code, stdout } = await api.run(['users', 'list', '--page', '2']);
    expect(code).toBe(0);
    expect(stdout).toBe('7\tUser 7\tu7@example.com\tagent\ttrue\tfalse\n');
  });

  it('get shows the role with its id on a terminal, and as data when piped (finding 16)', async () => {
    api.pool
      .intercept({ path: `${WSP}/users/7`, method: 'GET' })
      .reply(200, { data: user(7) }, JSON_HEADERS)
      .times(2);
    expect((await api.run(['users', 'get', '7', '--no-color'], { stdoutTTY: true, columns: 120 })).stdout).toMatch(/Role +agent \(2\)\n/);
    expect((await api.run(['users', 'get', '7'])).stdout).toContain('role\t{"id":2,"name":"agent"}\n');
  });
});

describe('users update (multipart)', () => {
  it('sends the given fields as form parts, booleans as 1/0', async () => {
    const seen = acceptUpdate(api, 7);
    const { code } = await api.run([
      'users',
      'update',
      '7',
      '--name',
      'Ann',
      '--timezone',
      'Europe/Lisbon',
      '--inactive',
      '--no-client',
      '--role',
      '3',
    ]);
    expect(code).toBe(0);
    expect([...(await seen.form!).entries()]).toEqual([
      ['name', 'Ann'],
      ['timezone', 'Europe/Lisbon'],
      ['status', '0'],
      ['client', '0'],
      ['role_id', '3'],
    ]);
  });

  it('--password with a value sends it with confirm_password', async () => {
    const seen = acceptUpdate(api, 7);
    expect((await api.run(['users', 'update', '7', '--password', 's3cret-pass'])).code).toBe(0);
    expect((await seen.form!).get('password')).toBe('s3cret-pass');
    expect((await seen.form!).get('confirm_password')).toBe('s3cret-pass');
  });

  it('--password without a value asks twice on a terminal', async () => {
    const seen = acceptUpdate(api, 7);
    const prompter = scriptedPrompter({ password: ['long-enough-1', 'long-enough-1'] });
    const { code } = await api.run(['users', 'update', '7', '--password'], { stdinTTY: true, prompter });
    expect(code).toBe(0);
    expect(prompter.asked).toEqual(['New password', 'Repeat the password']);
    expect((await seen.form!).get('password')).toBe('long-enough-1');
  });

  it('two different answers are exit 2, nothing sent', async () => {
    const prompter = scriptedPrompter({ password: ['long-enough-1', 'long-enough-2'] });
    const { code, stderr } = await api.run(['users', 'update', '7', '--password'], { stdinTTY: true, prompter });
    expect(code).toBe(2);
    expect(stderr).toBe('error: the two passwords differ: nothing was sent\n');
  });

  it('--password without a value and without a terminal is exit 2, never waits', async () => {
    const { code, stderr } = await api.run(['users', 'update', '7', '--password']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --password without a value asks on a terminal/);
  });

  it("a short password or a bad time zone is refused locally, named by flag as the server's errors are", async () => {
    const { code, stderr } = await api.run(['users', 'update', '7', '--password', 'short', '--timezone', 'Mars/Olympus']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: the user is invalid: nothing was sent\n  --timezone: The timezone field must be a valid timezone.\n  --password: The password field must be at least 8 characters.\n',
    );
  });

  it('--avatar goes as a file part', async () => {
    const avatar = await api.file('me.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]));
    const seen = acceptUpdate(api, 7);
    expect((await api.run(['users', 'update', '7', '--avatar', avatar])).code).toBe(0);
    const file = (await seen.form!).get('avatar') as File;
    expect(file.name).toBe('me.jpg');
    expect(file.type).toBe('image/jpeg');
  });

  it('nothing to update is exit 2', async () => {
    const { code, stderr } = await api.run(['users', 'update', '7']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: nothing to update/);
  });
});

describe('users create (extension)', () => {
  const CREATE_BOT = ['users', 'create', '--name', 'Bot', '--email', 'bot@example.com', '--password', 'bot-password', '--role', '3'];

  it('sends name, email, password and role_id as JSON', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: `${WSP}/users`, method: 'POST' })
      .reply(
        (opts) => (
          capture(opts),
          { statusCode: 201, data: JSON.stringify({ status: 201, message: 'ok', data: user(9) }), responseOptions: JSON_HEADERS }
        ),
      );
    const { code, stdout } = await api.run([...CREATE_BOT, '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('9\n');
    expect(bodies).toEqual([{ name: 'Bot', email: 'bot@example.com', password: 'bot-password', role_id: 3 }]);
  });

  it('on a backend without it: "not supported", exit 1', async () => {
    api.pool.intercept({ path: `${WSP}/users`, method: 'POST' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    const { code, stderr } = await api.run(CREATE_BOT);
    expect(code).toBe(1);
    expect(stderr).toBe('error: this server does not support creating users\n');
  });

  it('a bad e-mail is refused before any password question', async () => {
    const prompter = scriptedPrompter({});
    const { code } = await api.run(['users', 'create', '--name', 'Bot', '--email', 'nope', '--password', '--role', '3'], {
      stdinTTY: true,
      prompter,
    });
    expect(code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });
});
