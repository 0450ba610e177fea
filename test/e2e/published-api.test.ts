/**
 * wsm (in-process, in-process.ts) against the stand-in for the hosted service (test/standin), one
 * quirk at a time: each case is a point of "What was seen" in the issue "The published API alone".
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedStandinContact } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { startStandin, type Standin } from '../standin/index.js';
import { cleanup, createTemplateArgs } from './processes.js';

let standin: Standin;
let dir: string;
beforeEach(async () => {
  standin = await startStandin({ importDelayMs: 100 });
  dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
});
afterEach(async () => {
  await standin?.close();
  cleanup(dir);
});

const run = (args: string[], input?: string) => wsmInProcess(standin.env(dir), args, input);
const count = (line: string) => standin.requests.filter((r) => r === line).length;
const WS = () => `/workspaces/${standin.workspace}`;

async function createTemplate(name: string): Promise<string> {
  const res = await run([...createTemplateArgs(name), '-q']);
  expect(res.code, res.stderr).toBe(0);
  return res.stdout.trim();
}

function seedContacts(n: number): void {
  for (let i = 0; i < n; i++) seedStandinContact(standin, `1555000${String(i).padStart(4, '0')}`, `Person ${i}`);
}

describe('1. templates sync --wait and --fail-on-rejected without a template list', () => {
  it('--wait repeats the sync until the server answers "no pending template"', async () => {
    await createTemplate('order_update');
    standin.quirks.syncRoundsToDecide = 2;
    const res = await run(['templates', 'sync', '--wait', '--interval', '0.1s']);
    expect(res.code, res.stderr).toBe(0);
    expect(standin.state.templates[0].status).toBe('APPROVED');
    expect(count(`POST ${WS()}/templates/sync`)).toBe(3);
    expect(count(`GET ${WS()}/templates`)).toBe(0);
  });

  it('--fail-on-rejected reads each --template with GET and exits 7 naming the rejected one', async () => {
    const good = await createTemplate('order_update');
    const bad = await createTemplate('promo_reject');
    const res = await run([
      'templates',
      'sync',
      '--wait',
      '--interval',
      '0.1s',
      '--fail-on-rejected',
      '--template',
      good,
      '--template',
      bad,
    ]);
    expect(res.code, res.stderr).toBe(7);
    expect(res.stderr).toMatch(/promo_reject/);
    expect(res.stdout).toMatch(new RegExp(`${good}\\torder_update\\ten\\tAPPROVED`));
    expect(count(`GET ${WS()}/templates/${bad}`)).toBeGreaterThan(0);
  });

  it('--templates-from - reads the ids that `templates create -q` printed; all approved is exit 0', async () => {
    const ids = [await createTemplate('order_update'), await createTemplate('order_shipped')];
    const res = await run(
      ['templates', 'sync', '--wait', '--interval', '0.1s', '--fail-on-rejected', '--templates-from', '-'],
      ids.join('\n') + '\n',
    );
    expect(res.code, res.stderr).toBe(0);
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[3]),
    ).toEqual(['APPROVED', 'APPROVED']);
  });

  it('retries transient sync failures (500) with backoff until the timeout', async () => {
    const id = await createTemplate('order_update');
    standin.quirks.syncFailures = 2;
    const res = await run(['templates', 'sync', '--wait', '--interval', '0.1s', '--timeout', '1m', '--fail-on-rejected', '--template', id]);
    expect(res.code, res.stderr).toBe(0);
    expect(count(`POST ${WS()}/templates/sync`)).toBeGreaterThanOrEqual(3);
  });

  it('a sync that keeps failing until the timeout is exit 6 naming the cause', async () => {
    const id = await createTemplate('order_update');
    standin.quirks.syncFailures = 1000;
    const res = await run(['templates', 'sync', '--wait', '--interval', '0.1s', '--timeout', '2s', '--template', id]);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/Could not reach the template provider/);
  });

  it('a template still PENDING at the timeout is exit 6 naming it', async () => {
    const id = await createTemplate('slow_one');
    standin.quirks.syncRoundsToDecide = 1000;
    const res = await run(['templates', 'sync', '--wait', '--interval', '0.2s', '--timeout', '1s', '--template', id]);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(/still PENDING: slow_one/);
  });

  it('--fail-on-rejected with nothing to track says in one line how to name the templates (exit 2, nothing synced)', async () => {
    await createTemplate('order_update');
    const res = await run(['templates', 'sync', '--fail-on-rejected']);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/--template <id>/);
    expect(count(`POST ${WS()}/templates/sync`)).toBe(0);
  });
});

describe('2. templates create reads whatever 201 body the server sends', () => {
  it.each(['bare', 'success-template'] as const)('%s: the record is found and its id printed', async (shape) => {
    standin.quirks.templateCreateBody = shape;
    const id = await createTemplate('order_update');
    expect(id).toBe(String(standin.state.templates[0].id));
    const json = await run([
      'templates',
      'create',
      '--name',
      'second_one',
      '--language',
      'en',
      '--category',
      'UTILITY',
      '--body',
      'Hello there',
      '-o',
      'json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    // Unknown fields are kept.
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'second_one', status: 'PENDING', quality_score: null });
  });

  it.each(['data-null', 'empty'] as const)('%s: no record, so it says on stderr that the id is unknown, exit 0', async (shape) => {
    standin.quirks.templateCreateBody = shape;
    const res = await run([
      'templates',
      'create',
      '--name',
      'order_update',
      '--language',
      'en',
      '--category',
      'UTILITY',
      '--body',
      'Hello there',
      '-q',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^warning: .*no id/m);
    expect(res.stderr).not.toMatch(/Cannot read|undefined/);
    expect(standin.state.templates).toHaveLength(1);
  });
});

describe('3. lists show what the server sends, never undefined or [object Object]', () => {
  it('imports list without the counters wsm serve adds', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'number,name\n5550001001,Bea\n');
    expect((await run(['imports', 'create', file, '--name', 'june'])).code).toBe(0);
    const res = await run(['imports', 'list']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/june/);
    expect(res.stdout).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it('permissions list with permission objects {id, name, guard_name}', async () => {
    standin.quirks.permissionObjects = true;
    const res = await run(['permissions', 'list']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('contacts\tcontacts.export\n');
    expect(res.stdout).not.toContain('[object Object]');
    expect((await run(['permissions', 'list', '-q'])).stdout.split('\n')).toContain('campaigns.send');
  });

  it('roles list: permissions the server does not send are unknown, not 0', async () => {
    standin.quirks.rolesWithoutPermissions = true;
    const res = await run(['roles', 'list']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('1\tAdmin\tunknown\n');
    standin.quirks.rolesWithoutPermissions = false;
    standin.quirks.permissionObjects = true;
    expect((await run(['roles', 'list'])).stdout).toBe('1\tAdmin\t2\n');
  });
});

describe('4. a server that caps per_page', () => {
  it('--all and export lower per_page to the cap its message gives and walk on', async () => {
    standin.quirks.perPageMax = 50;
    seedContacts(120);
    const all = await run(['contacts', 'list', '--all', '-q']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(120);
    const exported = await run(['contacts', 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n')).toHaveLength(121);
  });

  it("walks Laravel's simple paginator (no last_page) by links.next, ids as strings", async () => {
    standin.quirks.simplePaginator = true;
    standin.quirks.stringIds = true;
    seedContacts(250);
    const all = await run(['contacts', 'list', '--all', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    const rows = JSON.parse(all.stdout);
    expect(rows).toHaveLength(250);
    expect(new Set(rows.map((r: { id: string }) => r.id)).size).toBe(250);
    expect(typeof rows[0].id).toBe('string');
  });

  it("walks Laravel's cursor paginator (next_page_url ?cursor=..., page ignored) by its cursor", async () => {
    standin.quirks.cursorPaginator = true;
    seedContacts(35);
    const all = await run(['contacts', 'list', '--all', '--per-page', '10', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).map((r: { name: string }) => r.name)).toEqual(Array.from({ length: 35 }, (_, i) => `Person ${i}`));
    expect(standin.requests.filter((r) => r.startsWith(`GET ${WS()}/contacts`))).toHaveLength(4);
  });
});

describe('5. contacts import --wait without GET one import', () => {
  it('polls the import list for its id; the file is uploaded once', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'number,name\n5550001001,Bea\n5550001002,Cid\n');
    const res = await run(['contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ name: 'people.csv', status: 'completed' });
    expect(count(`POST ${WS()}/contact-imports`)).toBe(1);
    expect(standin.state.contacts.map((c) => c.name)).toEqual(['Bea', 'Cid']);
  });
});

describe('6. auth login and status without /me', () => {
  const loginEnv = () => {
    const env = standin.env(dir);
    delete env.WSM_TOKEN;
    delete env.WSM_BASE_URL;
    delete env.WSM_WORKSPACE;
    return env;
  };
  const configFile = () => join(dir, 'config', 'config.json');

  it('a wrong token is exit 3 and nothing is saved', async () => {
    const res = await wsmInProcess(
      loginEnv(),
      ['auth', 'login', '--with-token', '--base-url', standin.url, '-w', standin.workspace],
      'wrong-token\n',
    );
    expect(res.code).toBe(3);
    expect(existsSync(configFile()) ? readFileSync(configFile(), 'utf8') : '').not.toContain('wrong-token');
  });

  it('a right token is checked with GET /workspaces/{workspace} and saved; status checks it the same way', async () => {
    const res = await wsmInProcess(
      loginEnv(),
      ['auth', 'login', '--with-token', '--base-url', standin.url, '-w', standin.workspace],
      `${standin.token}\n`,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(count(`GET ${WS()}`)).toBe(1);
    expect(readFileSync(configFile(), 'utf8')).toContain(standin.token);
    const status = await wsmInProcess(loginEnv(), ['auth', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(standin.url);
    const wrong = await wsmInProcess({ ...loginEnv(), WSM_TOKEN: 'wrong-token' }, ['auth', 'status']);
    expect(wrong.code).toBe(3);
  });
});

describe("7. permissions set checks names against the server's own listing", () => {
  it('sends names the server lists but wsm serve does not know', async () => {
    standin.quirks.permissionObjects = true;
    const res = await run(['permissions', 'set', 'contacts.view', 'contacts.export', 'campaigns.send']);
    expect(res.code, res.stderr).toBe(0);
    expect(standin.state.partnerDefaults).toEqual(['contacts.view', 'contacts.export', 'campaigns.send']);
  });

  it("refuses a name missing from the server's listing before sending (exit 2)", async () => {
    const res = await run(['permissions', 'set', 'contacts.view', 'labels.view']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/labels\.view/);
    expect(count('PATCH /workspaces/partner/permissions')).toBe(0);
  });
});

describe('8. a validation failure answered with 400', () => {
  it('is exit 5 with the field errors', async () => {
    standin.quirks.validationStatus = 400;
    expect((await run(['labels', 'create', 'VIP'])).code).toBe(0);
    const res = await run(['labels', 'create', 'VIP']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('  name: The name has already been taken.');
  });
});

describe('9. custom field values the server did not keep', () => {
  it('are named in a warning on stderr, exit 0', async () => {
    const res = await run(['contacts', 'create', '--number', '14155550100', '--name', 'Ann', '--field', 'city=Lisbon', '-q']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(String(standin.state.contacts[0].id));
    expect(res.stderr).toMatch(/^warning: .*city/m);
  });
});

describe('10. labels update with only a colour, where PUT requires the name', () => {
  it('sends the current name read with GET', async () => {
    standin.quirks.labelPutRequiresName = true;
    const id = (await run(['labels', 'create', 'VIP', '--color', '#ff0000', '-q'])).stdout.trim();
    const res = await run(['labels', 'update', id, '--color', '#00ff00']);
    expect(res.code, res.stderr).toBe(0);
    expect(standin.state.labels[0]).toMatchObject({ name: 'VIP', color: '#00ff00' });
  });
});
