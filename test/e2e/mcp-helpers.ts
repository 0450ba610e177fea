/**
 * `wsm mcp` as an MCP client sees it: the real binary started by the SDK's own Client over stdio,
 * with the environment given (the SDK's transport passes only what it is given, plus PATH and the
 * like). `close()` ends the session as a client does and reports how the process ended.
 */
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, listening } from './processes.js';

export interface McpSession {
  client: Client;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** Transport or protocol errors the client met (a stray line on stdout would land here). */
  protocolErrors: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes the session as a client does (ends stdin); resolves with how the process ended. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
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
  // The SDK keeps the child to itself; its exit says whether it ended on its own once stdin closed
  // (exit 0) or was killed by the client's SIGTERM, 2 s later.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // The client validates structured results against the schemas listTools() gives it.
  await client.listTools();
  return {
    client,
    stderr: () => stderr,
    protocolErrors,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    async close() {
      await client.close();
      return exited;
    },
  };
}

/** The text of a tool result (its error text, for a failed call). */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export interface McpHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  stderr(): string;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
}

/** `wsm mcp --http --port 0 …` as a process of its own; resolves once it printed where it listens. */
export async function startMcpHttp(env: NodeJS.ProcessEnv, args: string[] = []): Promise<McpHttpServer> {
  const { child, url, stderr, exited } = await listening(['mcp', '--http', '--port', '0', ...args], env);
  return {
    url,
    stderr,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
