/**
 * `wsm mcp` against the stand-in of the published API (test/standin: its operations alone,
 * no extension): the tools of the published API work, a waited import follows the import through the list,
 * and a tool or resource that needs an extension says so in the CLI's words.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { startMcp, textOf, type McpSession } from './mcp-helpers.js';
import { cleanup } from './processes.js';

let standin: Standin;
let dir: string;
let mcp: McpSession;
beforeAll(async () => {
  standin = await startStandin({ importDelayMs: 50 });
  dir = mkdtempSync(join(tmpdir(), 'wsm-mcp-standin-'));
  mcp = await startMcp(standin.env(dir));
});
afterAll(async () => {
  if (mcp) expect(await mcp.close()).toEqual({ code: 0, signal: null });
  await standin?.close();
  cleanup(dir);
});

describe('wsm mcp on a server without extensions', () => {
  it('starts without a request, and the published operations work', async () => {
    expect(standin.requests).toEqual([]);
    const made = await mcp.call('contacts.create', { number: '15557770001', name: 'Published' });
    expect(made.isError, textOf(made)).toBeFalsy();
    const listed = await mcp.call('contacts.list', { search: 'Published' });
    expect(listed.structuredContent).toMatchObject({ items: [{ number: '15557770001', name: 'Published' }] });
  });

  it('a tool needing an extension says the server does not support it (exit 1), naming what to do instead', async () => {
    const labels = await mcp.call('labels.list', {});
    expect(labels.isError).toBe(true);
    expect(textOf(labels)).toMatch(/^error: this server does not support listing labels: keep the ids .+\n\(exit 1: failure\)$/);
    const openapi = await mcp.client.readResource({ uri: 'wsm://openapi.json' }).catch((error: Error) => error);
    expect(openapi).toBeInstanceOf(Error);
    expect((openapi as Error).message).toMatch(/error: this server does not support the OpenAPI document/);
  });

  it('a waited import follows the import through the list (the published API has no GET of one import)', async () => {
    const csv = 'number,name\n15557770010,One\n15557770011,Two\n';
    const done = await mcp.call('contacts.import', { csv, name: 'two.csv', poll_interval: '50ms', confirm: true });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ import: { name: 'two.csv' } });
    expect(standin.requests.some((request) => /^GET \/workspaces\/[^/]+\/contact-imports$/.test(request))).toBe(true);
  });

  it('cancelling a waited import stops the polling at once; the import goes on', async () => {
    // A stand-in of its own, whose imports take 20 s: the wait polls until cancelled.
    const slow = await startStandin({ importDelayMs: 20_000 });
    const slowDir = mkdtempSync(join(tmpdir(), 'wsm-mcp-slow-'));
    const session = await startMcp(slow.env(slowDir));
    try {
      const abort = new AbortController();
      const polls = () => slow.requests.filter((request) => /^GET \/workspaces\/[^/]+\/contact-imports$/.test(request)).length;
      let pollsAtCancel = 0;
      const cancelled = await session.client
        .callTool(
          { name: 'contacts.import', arguments: { csv: 'number\n15557770020\n', name: 'slow.csv', poll_interval: '50ms', confirm: true } },
          undefined,
          {
            signal: abort.signal,
            onprogress: () => {
              // Once the import is uploaded: the plan's read of the workspace before it reports progress too.
              if (slow.state.imports.length === 0) return;
              pollsAtCancel = polls();
              abort.abort('enough');
            },
          },
        )
        .catch((error: unknown) => error);
      expect((cancelled as McpError).code).toBe(-32001);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // At most the poll in flight when the cancellation arrived; waiting on would be ~20 more.
      expect(polls() - pollsAtCancel).toBeLessThanOrEqual(1);
      expect(slow.state.imports).toHaveLength(1);
      expect(await session.close()).toEqual({ code: 0, signal: null });
    } finally {
      await slow.close();
      cleanup(slowDir);
    }
  });

  it('the workspace file leaves out what the server cannot list, and says so', async () => {
    const pulled = await mcp.call('workspace_file.pull', {});
    expect(pulled.isError, textOf(pulled)).toBeFalsy();
    expect((pulled.structuredContent as { messages: string[] }).messages).toContain(
      'warning: this server cannot list labels: the section is left out, and a file without it leaves labels alone',
    );
  });
});
