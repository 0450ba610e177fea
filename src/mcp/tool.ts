// What one MCP tool is, whatever it is built from: a resource operation (operations.ts) or a
// workflow of the CLI (workflows.ts). server.ts registers these; `wsm mcp --list-tools` lists them.
import type { z } from 'zod';
import type { OperationHints } from '../api/descriptions/types.js';
import type { Context } from '../cli/context.js';

/** The MCP annotations of a tool (readOnlyHint, destructiveHint, idempotentHint): an operation's hints. */
type ToolHints = OperationHints;

/** What a tool's `run` is handed for one call. */
export interface ToolCall {
  /** The command's Context with this call's streams, `-o json`, and its own interrupt. */
  ctx: Context;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
  /** The lines the CLI would print on stderr (notices, warnings, `✓ …`), for the result. */
  messages(): string[];
  /** A fresh world for a second verb in the same call: same signal, progress and stdin, no messages yet. */
  again(): ToolCall;
  /** A file the call made for the agent (a CSV given as text): named in its messages as the agent knows it, and readable though the caller is elsewhere. */
  nameFile(path: string, shownAs: string): void;
}

export interface ToolSpec {
  /** `<toolset>.<operation>`: `contacts.list`, `templates.sync`, `workspace_file.diff`. */
  name: string;
  /** The group `--toolsets` names: the resource (`contacts`) or `workspace_file`. */
  toolset: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** Declared where it tells the agent more than it costs (workflows); an operation's result is described in words. */
  output?: z.ZodObject;
  hints: ToolHints;
  /** In the published API: it works on the hosted service; false needs an extension of `wsm serve`. */
  published: boolean;
  /**
   * Set on deletes and bulk changes: what the call would do, said when `confirm: true` is
   * missing (nothing is sent then); undefined when this call changes nothing and needs none.
   */
  confirm?: (args: Record<string, unknown>, call: ToolCall) => Promise<string | undefined> | string | undefined;
  /** The argument whose text the CLI code reads as standard input (`-`): a file given as text. */
  stdinArgument?: string;
  /** Sends a long call's progress to the client (import and sync waits). */
  long?: boolean;
  /** `args` are the call's arguments as `input` parsed them (defaults set): server.ts checks them before any call. */
  run(args: Record<string, unknown>, call: ToolCall): Promise<Record<string, unknown>>;
}
