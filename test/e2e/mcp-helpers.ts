/**
 * `wsm mcp` as an MCP client sees it: the real binary started by the SDK's own Client over stdio,
 * with the environment given (the SDK's transport passes only what it is given, plus PATH and the
 * like). `close()` ends the session as a client does and reports how the process ended.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './processes.js';

export interface McpSession {
  client: Client;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** Transport or protocol errors the client met (a stray line on stdout would land here). */
  protocolErrors: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes the session; resolves once the process is gone, with the time that took. */
  close(): Promise<number>;
}

/** Progress notifications can race the result they precede (typescript-sdk#2580): such an error is the SDK's, not ours. */
const PROGRESS_RACE = /unknown token/i;

export async function startMcp(env: NodeJS.ProcessEnv, args: string[] = []): Promise<McpSession> {
  const stringEnv = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: stringEnv, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  const client = new Client({ name: 'wsm-e2e', version: '0.0.0' });
  const protocolErrors: string[] = [];
  client.onerror = (error) => {
    if (!PROGRESS_RACE.test(error.message)) protocolErrors.push(error.message);
  };
  await client.connect(transport);
  const pid = transport.pid!;
  // The client validates structured results against the schemas listTools() gives it.
  await client.listTools();
  return {
    client,
    stderr: () => stderr,
    protocolErrors,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    async close() {
      const started = Date.now();
      await client.close();
      for (;;) {
        try {
          process.kill(pid, 0);
        } catch {
          return Date.now() - started;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** The text of a tool result (its error text, for a failed call). */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
