// Each error class reaches the user as one sentence on stderr and the exit code docs/output.md gives it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, NO_JOURNAL, TOKEN, WSP, contact, page, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const LIST = `${WSP}/contacts`;

describe('error classes and exit codes', () => {
  it('401 is exit 3 and names where the token came from, with the fix there', async () => {
    api.pool.intercept({ path: LIST, method: 'GET' }).reply(401, { message: 'Unauthenticated.' }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>\n');
    api.pool.intercept({ path: LIST, method: 'GET' }).reply(401, { message: 'Unauthenticated.' }, JSON_HEADERS);
    const flagged = await api.run(['contacts', 'list', '--token', 'tok_from_flag']);
    expect(flagged.stderr).toBe('error: the server rejected the token (from --token): pass --token <token>\n');
  });

  it("a server's screenfuls are cut: a message at 1,000 characters, an answer's field errors at 100, each said", async () => {
    const errors: Record<string, string[]> = { name: [`${'n'.repeat(999)}\u{1F600}tail`] };
    for (let i = 0; i < 150; i++) errors[`field_${i}`] = ['Bad.'];
    api.pool.intercept({ path: LIST, method: 'POST' }).reply(422, { message: 'm'.repeat(5000), errors }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'create', '--number', '14155550100', '--name', 'Ann'], NO_JOURNAL);
    expect(code).toBe(5);
    const lines = stderr.split('\n');
    // The emoji straddling the cut is left out whole, never split into half a character.
    expect(lines[1]).toBe(`  --name: ${'n'.repeat(999)}… (6 more characters)`);
    expect(lines.slice(-3)).toEqual(['  field_98: Bad.', '  …: 51 more field errors of this answer are not shown', '']);
    expect(lines).toHaveLength(103); // the first line, --name, field_0 to field_98, the count, the end
  });

  it('403 is exit 3 naming the action; -o json prints the same sentence with the body on stdout', async () => {
    const body = { message: 'This action is unauthorized.', status: 403 };
    api.pool.intercept({ path: LIST, method: 'GET' }).reply(403, body, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list', '-o', 'json']);
    expect(code).toBe(3);
    expect(stderr).toBe('error: your role may not view contacts\n');
    expect(JSON.parse(stdout)).toEqual({ error: { message: 'your role may not view contacts', exit_code: 3, status: 403, server: body } });
  });

  it('500 is exit 6 (a 500 is not retried)', async () => {
    api.pool.intercept({ path: LIST, method: 'GET' }).reply(500, { message: 'Server error.', status: 500 }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'list']);
    expect(code).toBe(6);
    expect(stderr).toBe('error: Server error. (500)\n');
  });

  it('a 503 on a GET is retried (Retry-After honoured) and the command succeeds', async () => {
    api.pool
      .intercept({ path: LIST, method: 'GET' })
      .reply(503, { message: 'Busy.' }, { headers: { 'content-type': 'application/json', 'retry-after': '0' } });
    api.pool.intercept({ path: LIST, method: 'GET' }).reply(200, page([contact(1)]), JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'list', '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('1\n');
  });

  it('a refused connection is exit 6; a create (POST) is tried once only', async () => {
    api.pool
      .intercept({ path: LIST, method: 'POST' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:80'), { code: 'ECONNREFUSED' }));
    const { code, stderr } = await api.run(['contacts', 'create', '--number', '14155550100']);
    expect(code).toBe(6);
    expect(stderr).toBe('error: cannot reach http://api.test/api/v3 (connection refused)\n');
  });

  it('a base URL without a token is exit 2, the missing token named, and nothing is sent', async () => {
    const { code, stderr } = await api.run(['contacts', 'list'], { env: { WSM_TOKEN: undefined } });
    expect(code).toBe(2);
    expect(stderr).toBe('error: no token for http://api.test/api/v3 (from WSM_BASE_URL): run `wsm auth login`, or set WSM_TOKEN\n');
  });

  it('a workspace that is not a UUID is exit 2 before any request', async () => {
    const { code, stderr } = await api.run(['labels', 'get', '1', '-w', 'acme']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: workspace "acme" (from -w) is not a UUID: pass -w <uuid>\n');
    const fromEnv = await api.run(['labels', 'get', '1'], { env: { WSM_WORKSPACE: 'acme' } });
    expect(fromEnv.stderr).toBe('error: workspace "acme" (from WSM_WORKSPACE) is not a UUID: set WSM_WORKSPACE=<uuid>\n');
  });

  it('-v traces the request and response on stderr with the token redacted', async () => {
    api.pool.intercept({ path: `${LIST}?search=x`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list', '--search', 'x', '-v']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain(`> GET http://api.test${LIST}?search=x\n`);
    expect(stderr).toContain('> authorization: Bearer ***\n');
    expect(stderr).toMatch(/< 200 OK \(\d+ ms\)\n/);
    expect(stderr).not.toContain(TOKEN);
  });
});
