import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, TOKEN, WSP, jsonBodies, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

describe('wsm api', () => {
  it('GET with {workspace} substituted and -f fields as the query; prints the JSON answer', async () => {
    const answer = { data: [{ id: 1 }], meta: { total: 1 } };
    api.pool
      .intercept({ path: `${WSP}/contacts?search=ann&per_page=5`, method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(200, answer, JSON_HEADERS);
    const { code, stdout } = await api.run(['api', 'get', '/workspaces/{workspace}/contacts', '-f', 'search=ann', '-f', 'per_page=5']);
    expect(code).toBe(0);
    expect(stdout).toBe(JSON.stringify(answer, null, 2) + '\n');
  });

  it('POST with -f fields as a JSON body; key[]=v builds an array', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: `${WSP}/roles`, method: 'POST' })
      .reply((opts) => (capture(opts), { statusCode: 201, data: '{"status":201}', responseOptions: JSON_HEADERS }));
    const { code } = await api.run([
      'api',
      'POST',
      'workspaces/{workspace}/roles',
      '-f',
      'name=agent',
      '-f',
      'permissions[]=contacts.view',
      '-f',
      'permissions[]=roles.view',
    ]);
    expect(code).toBe(0);
    expect(bodies).toEqual([{ name: 'agent', permissions: ['contacts.view', 'roles.view'] }]);
  });

  it('--input - sends stdin as the body', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: '/api/v3/workspaces/partner/permissions', method: 'PATCH' })
      .reply((opts) => (capture(opts), { statusCode: 200, data: '{"status":200}', responseOptions: JSON_HEADERS }));
    const { code } = await api.run(['api', 'PATCH', '/workspaces/partner/permissions', '--input', '-'], {
      stdin: '{"permissions":["contacts.view"]}',
    });
    expect(code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['contacts.view'] }]);
  });

  it('an error status prints the body on stdout and exits with its code', async () => {
    const body = { message: 'Validation error', errors: { name: ['The name field is required.'] } };
    api.pool.intercept({ path: `${WSP}/labels`, method: 'POST' }).reply(422, body, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['api', 'POST', '/workspaces/{workspace}/labels', '-f', 'color=#fff']);
    expect(code).toBe(5);
    expect(JSON.parse(stdout)).toEqual(body);
    expect(stderr).toContain('  name: The name field is required.\n');
  });

  it('usage errors: unknown method, full URL, bad -f, bad --input JSON (exit 2, nothing sent)', async () => {
    const bad = await api.file('bad.json', '{nope');
    for (const [argv, message] of [
      [['api', 'FETCH', '/x'], 'unknown method "FETCH"'],
      [['api', 'GET', 'https://evil.test/x'], 'not a full URL'],
      [['api', 'POST', '/x', '-f', 'novalue'], '-f takes key=value'],
      [['api', 'POST', '/x', '--input', bad], '--input is not valid JSON'],
    ] as const) {
      const { code, stderr } = await api.run([...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toContain(message);
    }
  });
});

describe('wsm completion', () => {
  it('bash: a complete -F script that knows every resource, verb and flag', async () => {
    const { code, stdout } = await api.run(['completion', 'bash']);
    expect(code).toBe(0);
    expect(stdout).toContain('complete -o default -F _wsm wsm\n');
    expect(stdout).toMatch(/'\/'\) words='[^']*\bcontacts\b[^']*\btemplates\b/);
    expect(stdout).toContain("'templates/') words='list get create delete sync validate'");
    expect(stdout).toMatch(
      /'templates\/sync'\) words=''; flags='--wait --timeout --interval --fail-on-rejected --template --templates-from'/,
    );
    expect(stdout).toContain('    -o) COMPREPLY=($(compgen -W \'table json ndjson csv xlsx\' -- "$cur")); return ;;');
  });

  it('zsh: a #compdef script with descriptions', async () => {
    const { stdout } = await api.run(['completion', 'zsh']);
    expect(stdout.startsWith('#compdef wsm\n')).toBe(true);
    expect(stdout).toContain("'sync:pull approval statuses from the provider for PENDING templates'");
    expect(stdout).toContain('compdef _wsm wsm');
  });

  it('fish: complete lines per resource, verb and flag', async () => {
    const { stdout } = await api.run(['completion', 'fish']);
    expect(stdout).toContain(
      "complete -c wsm -f -n '__fish_use_subcommand' -a contacts -d 'list, create, update, import and export contacts'",
    );
    expect(stdout).toContain(
      "complete -c wsm -n '__fish_seen_subcommand_from contacts; and __fish_seen_subcommand_from import' -l strict -d 'refuse the file (exit 2) when any row is invalid, or rows name the same contact'",
    );
    expect(stdout).toContain("complete -c wsm -s o -l output -x -a 'table json ndjson csv xlsx'");
  });

  it('an unknown shell is exit 2', async () => {
    const { code, stderr } = await api.run(['completion', 'tcsh']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: <shell> takes one of bash, zsh, fish, got "tcsh"\n');
  });
});
