// The operation tools of `wsm mcp` (src/mcp/operations.ts) call the client only through each
// operation's typed client call (its description's `client`): a tool call reaches the client
// method of the tool's own name, with the record's id, the body and the call's cancel signal.
import { describe, expect, it } from 'vitest';
import type { WsmClient } from '../../src/api/client.js';
import { DESCRIPTIONS, OPERATIONS } from '../../src/api/descriptions/index.js';
import type { Context } from '../../src/cli/context.js';
import { operationTools } from '../../src/mcp/operations.js';
import type { ToolCall } from '../../src/mcp/tool.js';

interface Reached {
  method: string;
  args: unknown[];
}

/** A client whose every method records its call and answers an empty page (which every tool can shape). */
function recordingClient(reached: Reached[]): WsmClient {
  const resource = (key: string) =>
    new Proxy(
      {},
      {
        get:
          (_, method) =>
          async (...args: unknown[]) => {
            reached.push({ method: `${key}.${String(method)}`, args });
            return { data: [], meta: {} };
          },
      },
    );
  return new Proxy({}, { get: (_, key) => resource(String(key)) }) as WsmClient;
}

function toolCall(client: WsmClient, signal: AbortSignal): ToolCall {
  // The calls are checked one by one: the change journal's reads are left out (WSM_HISTORY=off).
  const ctx = {
    client: async () => client,
    workspace: async () => '0b0f4a52-3c1e-4d5e-9f00-000000000001',
    env: { WSM_HISTORY: 'off' },
  } as unknown as Context;
  const call: ToolCall = { ctx, signal, messages: () => [], again: () => call, nameFile: () => {} };
  return call;
}

describe('MCP operation tools', () => {
  const tools = operationTools(Object.values(DESCRIPTIONS));

  it('one tool per operation with a client call, but the multipart-only upload', () => {
    const expected = OPERATIONS.filter(
      (o) => o.client !== null && o.multipart !== 'only' && o.resource !== 'auth' && o.resource !== 'files',
    ).map((o) => `${o.resource}.${o.name}`);
    expect(tools.map((tool) => tool.name)).toEqual(expected);
    expect(expected).toContain('workspaces.create');
    expect(expected).not.toContain('imports.create');
  });

  it('a call reaches the client method of its name with the id, the body and the cancel signal', async () => {
    const wrong: string[] = [];
    for (const tool of tools) {
      const reached: Reached[] = [];
      const signal = new AbortController().signal;
      // The arguments its input takes, as the server's input check would leave them.
      const given = { id: 7, confirm: true, name: 'Ana', permissions: ['contacts.view'], body: { name: 'Ana' } };
      const args = Object.fromEntries(Object.entries(given).filter(([key]) => key in tool.input.shape));
      await tool.run(args, toolCall(recordingClient(reached), signal));
      const [call] = reached;
      const ok =
        reached.length === 1 &&
        call.method === tool.name &&
        (call.args.at(-1) as { signal?: AbortSignal }).signal === signal &&
        'id' in args === (call.args[0] === 7) &&
        (!('name' in args || 'body' in args) || JSON.stringify(call.args).includes('Ana'));
      if (!ok) wrong.push(`${tool.name}: ${JSON.stringify(reached)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('passes the one field a client method takes alone: a workspace name, a list of permission names', async () => {
    const reached: Reached[] = [];
    const signal = new AbortController().signal;
    const client = recordingClient(reached);
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    await tool('workspaces.create').run({ name: 'Acme' }, toolCall(client, signal));
    await tool('permissions.setPartnerDefaults').run({ permissions: ['contacts.view'], confirm: true }, toolCall(client, signal));
    await tool('contacts.update').run({ id: 3, name: 'Ana', email: 'ana@example.com' }, toolCall(client, signal));
    expect(reached).toEqual([
      { method: 'workspaces.create', args: ['Acme', { signal }] },
      { method: 'permissions.setPartnerDefaults', args: [['contacts.view'], { signal }] },
      { method: 'contacts.update', args: [3, { name: 'Ana', email: 'ana@example.com' }, { avatar: undefined }, { signal }] },
    ]);
  });
});
