import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestIO } from '../../../src/cli/io.js';
import { JSON_HEADERS, WSP, page, setupApi, template, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const PENDING = `${WSP}/templates?per_page=100&status=PENDING&page=1`;
const SYNC = `${WSP}/templates/sync`;
const synced = { success: true, message: 'Templates synchronized successfully.' };

describe('templates sync', () => {
  it('prints the server message, exit 0', async () => {
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync']);
    expect(code).toBe(0);
    expect(stdout).toBe('Templates synchronized successfully.\n');
  });

  it('-o json says the outcome in its own words, not the server envelope', async () => {
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ outcome: 'synced', message: 'Templates synchronized successfully.' });
  });

  it('a 404 {success: false} means nothing is pending: exit 0 and it says so', async () => {
    api.pool
      .intercept({ path: SYNC, method: 'POST' })
      .reply(404, { success: false, message: 'No pending templates found.' }, JSON_HEADERS)
      .times(2);
    const plain = await api.run(['templates', 'sync']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('No template is PENDING: nothing to sync.\n');
    const json = await api.run(['templates', 'sync', '-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ outcome: 'nothing_pending', message: 'No template is PENDING: nothing to sync.' });
  });

  it('a 404 for a missing workspace stays "not found", exit 4', async () => {
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    const { code } = await api.run(['templates', 'sync']);
    expect(code).toBe(4);
  });

  it('a 500 (provider down) is exit 6 with the server message, sent once (POST is not retried)', async () => {
    api.pool
      .intercept({ path: SYNC, method: 'POST' })
      .reply(500, { success: false, message: 'Template provider unavailable.' }, JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'sync']);
    expect(code).toBe(6);
    expect(stderr).toBe('error: Template provider unavailable. (500)\n');
  });

  const GET = (id: number) => `${WSP}/templates/${id}`;
  const one = (t: ReturnType<typeof template>) => ({ success: true, data: t });

  it('--wait syncs until none of the templates pending before is still pending, reading each with GET', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([template(1), template(2)]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS).times(2);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { status: 'APPROVED' })), JSON_HEADERS);
    api.pool.intercept({ path: GET(2), method: 'GET' }).reply(200, one(template(2)), JSON_HEADERS);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { status: 'APPROVED' })), JSON_HEADERS);
    api.pool
      .intercept({ path: GET(2), method: 'GET' })
      .reply(200, one(template(2, { status: 'REJECTED', rejection_reason: 'PROMOTIONAL' })), JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync', '--wait', '--interval', '0s']);
    expect(code).toBe(0);
    // Only the templates this sync was about.
    expect(stdout).toBe('1\ttpl_1\ten\tAPPROVED\t\n2\ttpl_2\ten\tREJECTED\tPROMOTIONAL\n');
  });

  it('--fail-on-rejected is exit 7 naming each rejected template and its reason', async () => {
    api.pool
      .intercept({ path: PENDING, method: 'GET' })
      .reply(200, page([template(1), template(2, { name: 'promo_x' }), template(4, { name: 'spam_y' })]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { status: 'APPROVED' })), JSON_HEADERS);
    api.pool
      .intercept({ path: GET(2), method: 'GET' })
      .reply(200, one(template(2, { name: 'promo_x', status: 'REJECTED', rejection_reason: 'PROMOTIONAL' })), JSON_HEADERS);
    api.pool
      .intercept({ path: GET(4), method: 'GET' })
      .reply(200, one(template(4, { name: 'spam_y', status: 'REJECTED', rejection_reason: 'INVALID_FORMAT' })), JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['templates', 'sync', '--fail-on-rejected', '-o', 'json']);
    expect(code).toBe(7);
    expect(JSON.parse(stdout).map((t: { name: string; status: string }) => `${t.name}:${t.status}`)).toEqual([
      'tpl_1:APPROVED',
      'promo_x:REJECTED',
      'spam_y:REJECTED',
    ]);
    expect(stderr).toBe('error: 2 templates were REJECTED: promo_x (PROMOTIONAL), spam_y (INVALID_FORMAT)\n');
  });

  it('--fail-on-rejected with nothing rejected is exit 0', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([template(1)]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { status: 'APPROVED' })), JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync', '--fail-on-rejected', '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('1\n');
  });

  it('--template names the templates to track: no list is read, a template answered {success, template} counts', async () => {
    api.pool.intercept({ path: GET(7), method: 'GET' }).reply(200, { success: true, template: template(7) }, JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool
      .intercept({ path: GET(7), method: 'GET' })
      .reply(200, { success: true, template: template(7, { status: 'REJECTED' }) }, JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'sync', '--fail-on-rejected', '--template', '7']);
    expect(code).toBe(7);
    expect(stderr).toBe('error: 1 template was REJECTED: tpl_7 (no reason given)\n');
  });

  it('--wait with nothing pending at the start is exit 0 and says so', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(404, { success: false, message: 'No pending templates found.' }, JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync', '--wait', '--fail-on-rejected']);
    expect(code).toBe(0);
    expect(stdout).toBe('No template is PENDING: nothing to sync.\n');
  });

  it('--wait past --timeout is exit 6 naming what is still pending', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([template(1, { name: 'slow_one' })]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { name: 'slow_one' })), JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['templates', 'sync', '--wait', '--timeout', '0s']);
    expect(code).toBe(6);
    expect(stdout).toBe('1\tslow_one\ten\tPENDING\t\n');
    expect(stderr).toBe('error: timed out after 0s: still PENDING: slow_one\n');
  });

  it('--wait on a terminal shows progress and a summary on stderr', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([template(1)]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: GET(1), method: 'GET' }).reply(200, one(template(1, { status: 'APPROVED' })), JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'sync', '--wait', '--no-color'], { stdoutTTY: true });
    expect(code).toBe(0);
    expect(stderr).toMatch(/Templates reviewed ░+ 0% \| 0\/1/);
    expect(stderr).toContain('1 approved, 0 rejected, 0 still pending.\n');
  });

  it("--wait: a Ctrl-C typed the moment the bar shows is wsm's to handle: the one line, exit 130", async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(200, page([template(1)]), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    const io = createTestIO({ stderrTTY: true });
    const draw = io.progress.bind(io);
    // A SIGINT before wsm listens for it would be Node's default: the process ends without a word.
    io.progress = (label, total) => {
      const bar = draw(label, total);
      if (label === 'Templates reviewed') process.emit('SIGINT');
      return bar;
    };
    const { code, stderr } = await api.run(['templates', 'sync', '--wait', '--interval', '0s', '--timeout', '2s'], { io });
    expect(stderr).toContain("interrupted: the provider's review goes on: `wsm templates sync --wait` resumes the wait\n");
    expect(code).toBe(130);
  });

  it('--wait on a backend without the template list syncs until "no pending template"', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(404, { message: 'The route could not be found.' }, JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(404, { success: false, message: 'No pending templates found.' }, JSON_HEADERS);
    const { code, stdout } = await api.run(['templates', 'sync', '--wait', '--interval', '0s']);
    expect(code).toBe(0);
    expect(stdout).toBe('No template is PENDING: nothing to sync.\n');
  });

  it('--wait retries a 503 during the wait; without --wait a 500 is exit 6 at once', async () => {
    api.pool.intercept({ path: GET(3), method: 'GET' }).reply(200, one(template(3)), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(503, { message: 'Service Unavailable' }, JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
    api.pool.intercept({ path: GET(3), method: 'GET' }).reply(200, one(template(3, { status: 'APPROVED' })), JSON_HEADERS);
    const waited = await api.run(['templates', 'sync', '--wait', '--interval', '0s', '--template', '3']);
    expect(waited.code).toBe(0);
    api.pool.intercept({ path: GET(3), method: 'GET' }).reply(200, one(template(3)), JSON_HEADERS);
    api.pool.intercept({ path: SYNC, method: 'POST' }).reply(500, { success: false, message: 'Provider down.' }, JSON_HEADERS);
    const once = await api.run(['templates', 'sync', '--fail-on-rejected', '--template', '3']);
    expect(once.code).toBe(6);
  });

  it('--fail-on-rejected on a backend without the list and no --template is exit 2, nothing synced', async () => {
    api.pool.intercept({ path: PENDING, method: 'GET' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'sync', '--wait', '--fail-on-rejected']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: this server cannot list templates, so --fail-on-rejected needs the templates to check: pass --template <id> (repeatable) or --templates-from <file|->\n',
    );
  });

  it('a --template that does not exist is exit 4 naming it, before any sync or wait', async () => {
    const missing = { success: false, message: 'Template not found.', status: 404 };
    api.pool.intercept({ path: GET(3), method: 'GET' }).reply(200, one(template(3)), JSON_HEADERS);
    api.pool.intercept({ path: GET(999), method: 'GET' }).reply(404, missing, JSON_HEADERS);
    // No sync is answered: the MockAgent refuses any request it was not told about.
    const one999 = await api.run(['templates', 'sync', '--wait', '--fail-on-rejected', '--template', '3', '--template', '999']);
    expect(one999).toMatchObject({ code: 4, stdout: '', stderr: 'error: template 999 not found\n' });
    api.pool.intercept({ path: GET(998), method: 'GET' }).reply(404, missing, JSON_HEADERS);
    api.pool.intercept({ path: GET(999), method: 'GET' }).reply(404, missing, JSON_HEADERS);
    const both = await api.run(['templates', 'sync', '--template', '998', '--template', '999']);
    expect(both).toMatchObject({ code: 4, stderr: 'error: templates 998, 999 not found\n' });
  });

  it('a named template deleted during the wait: a warning, and with --fail-on-rejected it counts as not approved (exit 7)', async () => {
    const missing = { success: false, message: 'Template not found.', status: 404 };
    for (const failOnRejected of [true, false]) {
      api.pool.intercept({ path: GET(5), method: 'GET' }).reply(200, one(template(5)), JSON_HEADERS);
      api.pool.intercept({ path: GET(6), method: 'GET' }).reply(200, one(template(6)), JSON_HEADERS);
      api.pool.intercept({ path: SYNC, method: 'POST' }).reply(200, synced, JSON_HEADERS);
      api.pool.intercept({ path: GET(5), method: 'GET' }).reply(404, missing, JSON_HEADERS);
      api.pool.intercept({ path: GET(6), method: 'GET' }).reply(200, one(template(6, { status: 'APPROVED' })), JSON_HEADERS);
      const flags = failOnRejected ? ['--fail-on-rejected'] : [];
      const { code, stdout, stderr } = await api.run([
        'templates',
        'sync',
        '--wait',
        '--interval',
        '0s',
        '--template',
        '5',
        '--template',
        '6',
        ...flags,
      ]);
      expect(stdout).toBe('6\ttpl_6\ten\tAPPROVED\t\n');
      const warning = 'warning: template 5 was deleted during the sync: it counts as not approved\n';
      if (failOnRejected) {
        expect(code).toBe(7);
        expect(stderr).toBe(warning + 'error: template 5 was deleted before its review ended\n');
      } else {
        expect(code).toBe(0);
        expect(stderr).toBe(warning);
      }
    }
  });

  it('an empty --templates-from is exit 2, not a fall-back to every pending template', async () => {
    const file = await api.file('ids.txt', '\n# none\n');
    const fromFile = await api.run(['templates', 'sync', '--wait', '--fail-on-rejected', '--templates-from', file]);
    expect(fromFile).toMatchObject({ code: 2, stdout: '' });
    expect(fromFile.stderr).toBe(
      `error: ${file} names no templates: --templates-from takes ids, one a line (as \`wsm templates create -q\` prints them)\n`,
    );
    const fromStdin = await api.run(['templates', 'sync', '--wait', '--templates-from', '-'], { stdin: '' });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toMatch(/^error: standard input names no templates: /);
  });

  it('a bad --timeout is exit 2', async () => {
    const { code, stderr } = await api.run(['templates', 'sync', '--wait', '--timeout', 'soon']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: --timeout takes a duration such as 10s, 2m or 500ms, got "soon"\n');
  });
});
