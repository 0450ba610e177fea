/**
 * What the journal says of a change an MCP tool made names what the agent gave. A CSV given to
 * `contacts.import` as text is written to a temporary file of wsm's own: the change says
 * `contacts.import (csv text, 2 rows)`, never that file of the host, in `wsm history`, `wsm
 * history show` and the undo's plan; a workspace file given as content is named by its plan.
 * Over HTTP, with the SDK's own client, against `wsm serve`. The binary runs `wsm mcp --http`, the
 * first change's history show and undo --dry-run, and an undo --yes; the other reads of the
 * journal run in-process (in-process.ts).
 */
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, textOf, type McpHttpServer } from './mcp-helpers.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, wsm } from './processes.js';

let server: Backend;
let mcp: McpHttpServer;
let client: Client;

beforeAll(async () => {
  server = await serveBackend();
  mcp = await startMcpHttp(server.env);
  client = new Client({ name: 'wsm-e2e-import-journal', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
});
afterAll(async () => {
  await client?.close();
  if (mcp) expect(await mcp.stop()).toBe(0);
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

interface Listed {
  id: string;
  summary: string;
  command: string;
}
const lastChange = async () => (JSON.parse((await wsmInProcess(server.env, ['history', '-o', 'json'])).stdout) as Listed[])[0];

async function importText(args: Record<string, unknown>): Promise<Listed> {
  const result = (await client.callTool({ name: 'contacts.import', arguments: { wait: true, confirm: true, ...args } })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  return lastChange();
}

/** Nothing the journal shows of the change names the temporary folder of this machine. */
async function expectNoHostPath(change: Listed, run = wsmInProcess): Promise<void> {
  const shown = await run(server.env, ['history', 'show', change.id]);
  expect(shown.code, shown.stderr).toBe(0);
  const undo = await run(server.env, ['undo', change.id, '--dry-run', '-o', 'json']);
  expect(undo.code, undo.stderr).toBe(0);
  for (const text of [JSON.stringify(change), shown.stdout, shown.stderr, undo.stdout]) {
    expect(text).not.toContain(tmpdir());
    expect(text).not.toContain('wsm-mcp-');
  }
}

describe('contacts.import given CSV text, over HTTP', () => {
  it('without a name: the change says csv text and its rows', async () => {
    const change = await importText({ csv: 'number,name\n14155550101,Ann\n14155550102,Ben\n' });
    expect({ summary: change.summary, command: change.command }).toEqual({
      summary: 'contacts.import (csv text, 2 rows)',
      command: 'wsm mcp: contacts.import (csv text, 2 rows)',
    });
    await expectNoHostPath(change, wsm);
  });

  it('with a name: the name the agent gave, and the rows', async () => {
    const change = await importText({ csv: 'number,name\n14155550103,Cat\n', name: 'people.csv' });
    expect({ summary: change.summary, command: change.command }).toEqual({
      summary: 'contacts.import people.csv (csv text, 1 row)',
      command: 'wsm mcp: contacts.import people.csv (csv text, 1 row)',
    });
    await expectNoHostPath(change);
    const undo = await wsm(server.env, ['undo', change.id, '--yes']);
    expect({ code: undo.code, stderr: undo.stderr }).toEqual({
      code: 0,
      stderr: `✓ undid change ${change.id}: 0 set back, 1 deleted, 0 created again, 0 failed\n`,
    });
  });
});

describe('workspace_file.apply given the file as content, over HTTP', () => {
  it('is one change, named by the tool and its plan, with a record per resource', async () => {
    const content = 'labels:\n  - { name: urgent, color: "#ff0000" }\n';
    const planned = (await client.callTool({ name: 'workspace_file.diff', arguments: { content } })) as CallToolResult;
    expect(planned.isError, textOf(planned)).toBeFalsy();
    const { plan_id } = planned.structuredContent as { plan_id: string };
    const applied = (await client.callTool({
      name: 'workspace_file.apply',
      arguments: { content, plan_id, confirm: true },
    })) as CallToolResult;
    expect(applied.isError, textOf(applied)).toBeFalsy();
    const change = await lastChange();
    expect({ summary: change.summary, command: change.command }).toEqual({
      summary: `workspace_file.apply (content given) plan ${plan_id}`,
      command: `wsm mcp: workspace_file.apply (content given) plan ${plan_id}`,
    });
    const shown = await wsmInProcess(server.env, ['history', 'show', change.id]);
    expect(shown.stdout).toMatch(/^\+ record 1: create label \d+\n {4}name: "urgent"\n {4}color: "#ff0000"\n/m);

    // history.undo takes the apply back: the plan first, then with confirm the label goes.
    const undoPlan = (await client.callTool({ name: 'history.undo', arguments: { change: change.id } })) as CallToolResult;
    expect(undoPlan.isError, textOf(undoPlan)).toBeFalsy();
    expect(undoPlan.structuredContent).toMatchObject({ plan: { delete: 1 } });
    const undone = (await client.callTool({ name: 'history.undo', arguments: { change: change.id, confirm: true } })) as CallToolResult;
    expect(undone.isError, textOf(undone)).toBeFalsy();
    expect(undone.structuredContent).toMatchObject({ results: [{ outcome: 'deleted', status: 200 }] });
    expect((await wsmInProcess(server.env, ['labels', 'list', '-q'])).stdout).toBe('');
  });
});
