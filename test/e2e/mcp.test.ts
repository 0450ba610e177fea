/**
 * `wsm mcp` end to end, as an MCP client uses it: the real binary against the server `wsm serve`
 * starts (run in the test's process, backends.ts serveBackend: the server's process is not the point
 * here), driven by the SDK's own Client over stdio (listTools first, as clients do; it also makes the
 * client check every structured result against the tool's output schema).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type Backend, seedStandinContact, serveBackend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { startMcp, textOf, type McpSession } from './mcp-helpers.js';
import { cleanup, localProfile, wsm } from './processes.js';
import { startStandin } from '../standin/index.js';

let server: Backend;
let mcp: McpSession;
beforeAll(async () => {
  server = await serveBackend();
  mcp = await startMcp(server.env);
});
afterAll(async () => {
  if (mcp) expect(await mcp.close()).toEqual({ code: 0, signal: null });
  if (mcp) expect(mcp.protocolErrors).toEqual([]);
  if (server) expect(await server.stop()).toBe(0);
});

const local = () => localProfile(server);

describe('the tools an agent is offered', () => {
  it('one per operation and workflow, each with its input schema, its annotations, and an output schema for the workflows', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'contacts.list',
        'contacts.get',
        'contacts.create',
        'contacts.update',
        'contacts.delete',
        'contacts.import',
        'labels.list',
        'roles.update',
        'templates.sync',
        'users.update',
        'workspace_file.diff',
        'workspace_file.apply',
        'history.list',
        'history.undo',
      ]),
    );
    expect(names.some((name) => name.startsWith('auth.'))).toBe(false);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      // Operations return the server's records (their shape said in the description); workflows declare theirs.
      const workflow =
        ['contacts.import', 'templates.sync'].includes(tool.name) ||
        tool.name.startsWith('workspace_file.') ||
        tool.name.startsWith('history.');
      expect(tool.outputSchema?.type, tool.name).toBe(workflow ? 'object' : undefined);
      expect(tool.description, tool.name).toMatch(/\w/);
    }
    const list = tools.find((tool) => tool.name === 'contacts.list')!;
    expect(Object.keys(list.inputSchema.properties ?? {}).sort()).toEqual(['cursor', 'field_values', 'fields', 'per_page', 'search']);
    expect(list.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    const create = tools.find((tool) => tool.name === 'contacts.create')!;
    expect(create.inputSchema.required).toEqual(['number']);
    const remove = tools.find((tool) => tool.name === 'contacts.delete')!;
    expect(remove.annotations).toEqual({ destructiveHint: true, idempotentHint: true, openWorldHint: false });
    expect(Object.keys(remove.inputSchema.properties ?? {}).sort()).toEqual(['confirm', 'id']);
  });
});

describe('reads and writes through the typed client', () => {
  it('creates contacts, then lists them a page at a time with a cursor', async () => {
    for (const number of ['15550000001', '15550000002', '15550000003']) {
      const made = await mcp.call('contacts.create', { number, name: `Page ${number.slice(-1)}` });
      expect(made.isError, textOf(made)).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ data: { number, name: `Page ${number.slice(-1)}` } });
    }
    const first = await mcp.call('contacts.list', { search: 'Page', per_page: 2 });
    expect(first.structuredContent).toMatchObject({ total: 3, next_cursor: 'p2' });
    const items = (first.structuredContent as { items: { number: string }[] }).items;
    expect(items).toHaveLength(2);
    const second = await mcp.call('contacts.list', { search: 'Page', per_page: 2, cursor: 'p2' });
    const rest = second.structuredContent as { items: { number: string }[]; next_cursor?: string };
    expect(rest.items).toHaveLength(1);
    expect(rest.next_cursor).toBeUndefined();
    expect([...items, ...rest.items].map((c) => c.number).sort()).toEqual(['15550000001', '15550000002', '15550000003']);
  });

  it('a record that is not there is a tool error in the CLI words, with exit 4', async () => {
    const missing = await mcp.call('contacts.get', { id: 999999 });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(textOf(missing)).toBe('error: contact 999999 not found\n(exit 4: not found)');
    expect(missing._meta).toEqual({ 'wsm/exit_code': 4 });
  });

  it('input the server rejects comes back with its field errors, exit 5; input the schema refuses never leaves', async () => {
    expect((await mcp.call('fields.create', { name: 'loyalty_tier' })).isError).toBeFalsy();
    const again = await mcp.call('fields.create', { name: 'loyalty_tier' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(
      /^error: the server rejected the field:\n {2}name: .+\n\(exit 5: rejected by the server: fix the fields named\)$/,
    );
    const unknown = await mcp.call('labels.create', { name: 'vip', colour: 'red' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(
      'error: invalid arguments for labels.create:\n  colour: "colour" is not an argument of labels.create (did you mean "color"?).\n(exit 2: bad input, nothing was sent)',
    );
    expect(unknown._meta).toEqual({ 'wsm/exit_code': 2 });
    const wrongType = await mcp.call('contacts.list', { per_page: 500 });
    expect(textOf(wrongType)).toMatch(
      /^error: invalid arguments for contacts.list:\n {2}per_page: .+\n\(exit 2: bad input, nothing was sent\)$/,
    );
    expect(wrongType._meta).toEqual({ 'wsm/exit_code': 2 });
    // In the API's words: a name of invisible fillers only is as blank as an empty one.
    for (const name of ['', '\u3164', '\u2800'])
      expect(textOf(await mcp.call('labels.create', { name }))).toBe(
        'error: invalid arguments for labels.create:\n  name: The name field is required.\n(exit 2: bad input, nothing was sent)',
      );
    expect((await mcp.call('labels.list', {})).structuredContent).toMatchObject({ items: [] });
  });

  it('a delete says what it would do without confirm: true, and does it with it', async () => {
    const made = await mcp.call('labels.create', { name: 'temporary', color: '#112233' });
    const id = (made.structuredContent as { data: { id: number } }).data.id;
    const asked = await mcp.call('labels.delete', { id });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toBe(
      `deleting label ${id} (wsm undo can make it again, with a new id): call again with "confirm": true to do it; nothing was done`,
    );
    expect((await mcp.call('labels.get', { id })).isError).toBeFalsy();
    const done = await mcp.call('labels.delete', { id, confirm: true });
    expect(done.structuredContent).toMatchObject({ deleted: true });
    expect(textOf(await mcp.call('labels.get', { id }))).toBe(`error: label ${id} not found\n(exit 4: not found)`);
  });
});

describe("lists on a server that pages with its own cursor (the stand-in as Laravel's cursorPaginate)", () => {
  it("next_cursor carries the server's cursor: every contact once, then none; page numbers keep p2", async () => {
    const standin = await startStandin();
    standin.quirks.cursorPaginator = true;
    const names = Array.from({ length: 7 }, (_, i) => `Walked ${i}`);
    for (const [i, name] of names.entries()) seedStandinContact(standin, `1555000200${i}`, name);
    const dir = mkdtempSync(join(tmpdir(), 'wsm-mcp-standin-'));
    const session = await startMcp(standin.env(dir));
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let call = 0; call < 6; call++) {
        const page = await session.call('contacts.list', { per_page: 3, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.isError, textOf(page)).toBeFalsy();
        const { items, next_cursor: next } = page.structuredContent as { items: { name: string }[]; next_cursor?: string };
        seen.push(...items.map((contact) => contact.name));
        cursor = next;
        if (cursor === undefined) break;
      }
      expect({ seen, cursor }).toEqual({ seen: names, cursor: undefined });

      standin.quirks.cursorPaginator = false;
      expect((await session.call('contacts.list', { per_page: 3 })).structuredContent).toMatchObject({ next_cursor: 'p2' });
      const forged = await session.call('contacts.list', { cursor: 'qnot-json' });
      expect({ error: forged.isError, text: textOf(forged) }).toEqual({
        error: true,
        text: expect.stringMatching(/^error: cursor "qnot-json" is not one a list returned/),
      });
    } finally {
      expect(await session.close()).toEqual({ code: 0, signal: null });
      await standin.close();
      cleanup(dir);
    }
  });
});

describe('a token whose role may only read contacts', () => {
  it('reads, and a write is a permission error (exit 3) in the CLI words; --profile picks the profile as for every command', async () => {
    const role = await wsmInProcess(server.env, ['roles', 'create', 'Reader', '--permission', 'contacts.view', '-q']);
    expect(role.code, role.stderr).toBe(0);
    const user = await wsmInProcess(server.env, [
      'users',
      'create',
      '--name',
      'Rea',
      '--email',
      'rea@example.com',
      '--password',
      'long password',
      '--role',
      role.stdout.trim(),
    ]);
    expect(user.code, user.stderr).toBe(0);
    const login = await wsmInProcess(
      server.env,
      [
        'auth',
        'login',
        '--profile',
        'rea',
        '--email',
        'rea@example.com',
        '--password-stdin',
        '--base-url',
        server.url,
        '-w',
        local().workspace,
      ],
      'long password\n',
    );
    expect(login.code, login.stderr).toBe(0);
    expect((await wsmInProcess(server.env, ['profile', 'use', 'local'])).code).toBe(0);

    const reader = await startMcp(server.env, ['--profile', 'rea']);
    try {
      const listed = await reader.call('contacts.list', {});
      expect(listed.isError, textOf(listed)).toBeFalsy();
      const refused = await reader.call('contacts.create', { number: '+15550009999' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^error: your role may not create contacts.*\n\(exit 3: not permitted \(the token or its role\)\)$/s);
    } finally {
      expect(await reader.close()).toEqual({ code: 0, signal: null });
    }
  });
});

describe('the connection, as every command takes it', () => {
  it('--base-url and -w pick the server and the workspace', async () => {
    const made = await wsmInProcess(server.env, ['workspace', 'create', 'Second for MCP', '-o', 'json']);
    expect(made.code, made.stderr).toBe(0);
    const second = (JSON.parse(made.stdout) as { id: string }).id;
    const session = await startMcp({ ...server.env, WSM_PROFILE: undefined }, ['--base-url', server.url, '-w', second]);
    try {
      expect((await session.call('workspaces.get')).structuredContent).toMatchObject({ data: { id: second, name: 'Second for MCP' } });
      expect((await session.call('contacts.list')).structuredContent).toMatchObject({ items: [] });
    } finally {
      expect(await session.close()).toEqual({ code: 0, signal: null });
    }
  });
});

describe('--read-only', () => {
  it('offers only the reading tools; a write is refused and changes nothing', async () => {
    const reader = await startMcp(server.env, ['--read-only']);
    try {
      const { tools } = await reader.client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((tool) => tool.name)).toContain('workspace_file.diff');
      const refused = await reader.call('contacts.create', { number: '+15550008888' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/contacts\.create not found/);
      const found = await reader.call('contacts.list', { search: '+15550008888' });
      expect(found.structuredContent).toMatchObject({ items: [] });
    } finally {
      expect(await reader.close()).toEqual({ code: 0, signal: null });
    }
  });

  it('--list-tools prints the selection without starting a server or asking one', async () => {
    const listed = await wsm({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, [
      'mcp',
      '--tools',
      'contacts.*,templates.sync',
      '--list-tools',
      '-o',
      'json',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual([
      'contacts.create',
      'contacts.delete',
      'contacts.get',
      'contacts.import',
      'contacts.list',
      'contacts.update',
      'templates.sync',
    ]);
    const wrong = await wsm(server.env, ['mcp', '--tools', 'contact.*', '--list-tools']);
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toBe('error: --tools: no tool matches "contact.*" (`wsm mcp --list-tools` lists them)\n');
  });
});

describe('long work: a waited import', () => {
  const csv = ['number,name', ...Array.from({ length: 400 }, (_, i) => `+1555100${String(i).padStart(4, '0')},Row ${i}`)].join('\n') + '\n';

  it('needs confirm: true, then uploads, sends progress while the server works, and returns the finished import', async () => {
    const asked = await mcp.call('contacts.import', { csv, name: 'rows.csv' });
    expect(textOf(asked)).toBe(
      'importing the CSV given creates or updates one contact per row of the workspace: call again with "confirm": true to do it; nothing was done',
    );
    const seen: Progress[] = [];
    const done = await mcp.client.callTool(
      { name: 'contacts.import', arguments: { csv, name: 'rows.csv', poll_interval: '50ms', confirm: true } },
      undefined,
      {
        onprogress: (progress) => seen.push(progress),
        resetTimeoutOnProgress: true,
      },
    );
    expect(done.isError, textOf(done as never)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({
      import: { status: 'completed', total_rows: 400 },
      messages: [expect.stringMatching(/^✓ uploaded .*rows\.csv as import \d+$/)],
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((progress) => progress.message)).toContainEqual(expect.stringMatching(/^Importing rows\.csv: \d+/));
    const listed = await mcp.call('contacts.list', { search: 'Row 39', per_page: 100 });
    expect((listed.structuredContent as { total: number }).total).toBe(11);
  });

  it("imports.errors gives every error of an import, a page at a time, by the import's id", async () => {
    const bad = ['number,name', '15552000001,Ok', ...Array.from({ length: 3 }, (_, i) => `bad${i},Row`)].join('\n') + '\n';
    const done = await mcp.call('contacts.import', { csv: bad, name: 'bad.csv', poll_interval: '50ms', confirm: true });
    // Rows failed: a tool error (exit 8) that names the import and the tool that lists its errors, never a CLI command;
    // then what the call said before it, the CSV named as the agent named it.
    expect(done.isError).toBe(true);
    const id = Number(/^error: import (\d+):/.exec(textOf(done))![1]);
    const row = (n: number) => `  warning: bad.csv row ${n}: number: The number must be a phone number of 7 to 15 digits.`;
    expect(textOf(done)).toBe(
      [
        `error: import ${id}: 3 of 4 rows failed (\`imports.errors\` with id ${id} lists them)`,
        '(exit 8: done, but some items failed)',
        'said before the error:',
        // Nothing in the file could be held: it is sent at once and its rows checked while the server works.
        `  ✓ uploaded bad.csv as import ${id}`,
        row(3),
        row(4),
        row(5),
        '  warning: sent anyway: the server skips the 3 invalid rows (use strict: true to refuse the file)',
      ].join('\n'),
    );
    // Tolerated, the call succeeds, and its messages name the tool's arguments where the CLI's name its flags.
    const tolerated = await mcp.call('contacts.import', {
      csv: bad,
      name: 'bad.csv',
      poll_interval: '50ms',
      max_failures: '100%',
      confirm: true,
    });
    expect(tolerated.isError, textOf(tolerated)).toBeFalsy();
    const messages = (tolerated.structuredContent as { messages: string[] }).messages;
    expect(messages).toContain('warning: sent anyway: the server skips the 3 invalid rows (use strict: true to refuse the file)');
    expect(messages.some((line) => line.includes('(tolerated: max_failures 100%)'))).toBe(true);
    expect(messages.filter((line) => / --[a-z]/.test(line))).toEqual([]);
    const first = await mcp.call('imports.errors', { id, per_page: 2 });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(first.structuredContent).toEqual({
      items: [
        { row: 3, line: 3, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
        expect.objectContaining({ row: 4 }),
      ],
      total: 3,
      next_cursor: 'p2',
    });
    const second = await mcp.call('imports.errors', { id, per_page: 2, cursor: 'p2' });
    expect(second.structuredContent).toEqual({ items: [expect.objectContaining({ row: 5, failed: true })], total: 3 });
  });

  it('following an import that does not exist: exit 4 naming the tool that lists the imports, never a CLI command', async () => {
    const missing = await mcp.call('contacts.import', { import_id: 987654, poll_interval: '50ms' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(
      'error: no import 987654 in this workspace (`imports.list` shows the imports there are)\n(exit 4: not found)',
    );
  });

  it('cancelling stops the wait, not the import: it finishes on the server', async () => {
    const big =
      ['number,name', ...Array.from({ length: 3000 }, (_, i) => `+1555200${String(i).padStart(4, '0')},Big ${i}`)].join('\n') + '\n';
    const abort = new AbortController();
    const cancelled = await mcp.client
      .callTool({ name: 'contacts.import', arguments: { csv: big, name: 'big.csv', poll_interval: '50ms', confirm: true } }, undefined, {
        signal: abort.signal,
        // Once the import runs on the server (its plan, read before the upload, reports progress too).
        onprogress: (progress) => progress.message?.startsWith('Importing') && abort.abort('enough'),
      })
      .catch((error: unknown) => error);
    expect(cancelled).toBeInstanceOf(McpError);
    expect((cancelled as McpError).code).toBe(-32001);
    // The session goes on, and the import completes on the server.
    for (;;) {
      const imports = (await mcp.call('imports.list', { per_page: 100 })).structuredContent as {
        items: { name: string; status: string }[];
      };
      const mine = imports.items.find((item) => item.name === 'big.csv');
      expect(mine).toBeDefined();
      if (mine!.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});

describe('long work: a waited template sync', () => {
  it('syncs until the template named is decided, with progress meanwhile, and returns its status', async () => {
    // Its own server: the provider takes a second to decide, so the wait has something to report.
    const slow = await serveBackend({ approvalDelayMs: 1_000 });
    const session = await startMcp(slow.env);
    try {
      const made = await session.call('templates.create', {
        name: 'order_update',
        language: 'en',
        category: 'UTILITY',
        body: { text: 'Your order {{1}} is on its way.', variables: ['A-1'] },
      });
      expect(made.isError, textOf(made)).toBeFalsy();
      const id = (made.structuredContent as { data: { id: number } }).data.id;
      const seen: Progress[] = [];
      const synced = await session.client.callTool(
        { name: 'templates.sync', arguments: { wait: true, templates: [id], poll_interval: '100ms' } },
        undefined,
        {
          onprogress: (progress) => seen.push(progress),
        },
      );
      expect(synced.isError, textOf(synced as never)).toBeFalsy();
      expect(synced.structuredContent).toMatchObject({ templates: [{ id, name: 'order_update', status: 'APPROVED' }] });
      expect(seen[0]).toEqual({ progress: 0, total: 1, message: 'Templates reviewed: 0 of 1' });
    } finally {
      expect(await session.close()).toEqual({ code: 0, signal: null });
      expect(await slow.stop()).toBe(0);
    }
  });
});

describe('a wait longer than a client allows a request', () => {
  it('keeps the call alive with progress at most every 5 s, returns a resume handle when its time is up, and resuming ends the wait', async () => {
    const slow = await serveBackend({ approvalDelayMs: 9_000 });
    const session = await startMcp(slow.env);
    try {
      const made = await session.call('templates.create', {
        name: 'slow_review',
        language: 'en',
        category: 'UTILITY',
        body: { text: 'Your order {{1}} shipped.', variables: ['A-1'] },
      });
      const id = (made.structuredContent as { data: { id: number } }).data.id;
      const started = Date.now();
      const seen: Array<Progress & { at: number }> = [];
      // Polls 7 s apart: the keep-alive fills the gap. A 5.5 s request time-out, reset on progress, is never reached.
      const first = await session.client.callTool(
        { name: 'templates.sync', arguments: { wait: true, templates: [id], poll_interval: '7s', timeout: '6s' } },
        undefined,
        {
          onprogress: (progress) => seen.push({ ...progress, at: Date.now() }),
          timeout: 5_500,
          resetTimeoutOnProgress: true,
        },
      );
      expect(first.isError, textOf(first as never)).toBeFalsy();
      expect(first.structuredContent).toMatchObject({
        resume: { tool: 'templates.sync', arguments: { wait: true, templates: [id], timeout: '6s' } },
      });
      const times = [started, ...seen.map((progress) => progress.at)];
      const gaps = times.slice(1).map((at, i) => at - times[i]);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(5_500);
      expect(seen.every((progress) => typeof progress.message === 'string' && progress.message.length > 0)).toBe(true);
      expect(seen.map((progress) => progress.progress)).toEqual([...seen.map((progress) => progress.progress)].sort((a, b) => a - b));
      expect(new Set(seen.map((progress) => progress.progress)).size).toBe(seen.length);
      expect(seen.some((progress) => /still working, \d+ s\)$/.test(progress.message ?? ''))).toBe(true);
      // What it waits for and for how long, in the words a piped wait prints (docs/output.md "Waits").
      expect(seen.some((progress) => /^waiting for 1 template: 1 PENDING; \d+s of 6s/.test(progress.message ?? ''))).toBe(true);
      const resume = (first.structuredContent as { resume: { tool: string; arguments: Record<string, unknown> } }).resume;
      const second = await session.client.callTool({
        name: resume.tool,
        arguments: { ...resume.arguments, poll_interval: '1s', timeout: '30s' },
      });
      expect(second.structuredContent).toMatchObject({ templates: [{ id, status: 'APPROVED' }] });
      // Nothing left to review: an outcome, not a failure.
      const nothing = await session.call('templates.sync', {});
      expect(nothing.isError).toBeFalsy();
      expect(nothing.structuredContent).toMatchObject({ sync: { outcome: 'nothing_pending' } });
      expect(JSON.stringify(nothing.structuredContent)).not.toContain('"success":false');
    } finally {
      expect(await session.close()).toEqual({ code: 0, signal: null });
      expect(await slow.stop()).toBe(0);
    }
  });
});

describe('the workspace as code, and the resources', () => {
  it('pull, diff (read-only, with a plan_id), apply of that plan with confirm: true', async () => {
    const pulled = await mcp.call('workspace_file.pull', {});
    const content = (pulled.structuredContent as { content: string }).content;
    expect(content).toMatch(/^# yaml-language-server: \$schema=/);
    const file = parse(content) as { labels?: unknown[] };
    const edited = stringify({ ...file, labels: [...(file.labels ?? []), { name: 'from-agent', color: '#00aa00' }] });

    const diff = await mcp.call('workspace_file.diff', { content: edited });
    expect(diff.isError, textOf(diff)).toBeFalsy();
    const { plan, plan_id } = diff.structuredContent as {
      plan: { changes: { action: string; section: string; key: string }[] };
      plan_id: string;
    };
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'create', section: 'labels', key: 'from-agent' })]);

    const asked = await mcp.call('workspace_file.apply', { content: edited, plan_id });
    expect(textOf(asked)).toMatch(
      /^applying plan [0-9a-f]{16} changes the workspace to match the file given: call again with "confirm": true/,
    );
    const stale = await mcp.call('workspace_file.apply', { content: edited, plan_id: '0000000000000000', confirm: true });
    expect(textOf(stale)).toMatch(/^error: the plan is no longer 0000000000000000: .* nothing was changed/);
    const applied = await mcp.call('workspace_file.apply', { content: edited, plan_id, confirm: true });
    expect(applied.isError, textOf(applied)).toBeFalsy();
    expect(applied.structuredContent).toMatchObject({
      result: { applied: true, results: [{ action: 'create', key: 'from-agent', status: 'created' }] },
    });
    const after = await mcp.call('workspace_file.diff', { content: edited });
    expect((after.structuredContent as { plan: { changes: unknown[] } }).plan.changes).toEqual([]);
  });

  it('the workspace file and the OpenAPI document are resources an agent reads in one step', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(['wsm://openapi.json', 'wsm://workspace-file']);
    const file = await mcp.client.readResource({ uri: 'wsm://workspace-file' });
    expect(file.contents[0]).toMatchObject({ mimeType: 'application/yaml', text: expect.stringMatching(/^# yaml-language-server/) });
    const openapi = await mcp.client.readResource({ uri: 'wsm://openapi.json' });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
  });

  it('writes nothing to stdout but the protocol, and nothing to stderr', () => {
    expect(mcp.protocolErrors).toEqual([]);
    expect(mcp.stderr()).toBe('');
  });
});
