// The one gate for files of the machine wsm runs on. Whatever input names such a file (a command
// line's argument or flag, a workspace file's media header, an MCP tool's `file`) is let through
// here before anything opens, reads or looks at it. Input from a caller on another machine (`wsm
// mcp --http`) names no file of this one: nothing is read for it, and the refusal is the same
// sentence whatever the path is, so that it tells nothing of what exists here (no existence, type
// or size).
import { UsageError } from './errors.js';

/** Where a command's input came from, as far as files of this machine go. */
export interface HostFiles {
  /** The input came from a caller elsewhere (MCP over HTTP): no file of this machine is read or looked at for it. */
  readonly remote: boolean;
  /** Files wsm itself made for this input (a CSV given as text, written to a temporary file): read whoever the caller. */
  readonly made: Set<string>;
}

/** The command line's input, and a local agent's (MCP over stdio): it runs as the user, on this machine. */
const LOCAL: HostFiles = { remote: false, made: new Set() };

/** A caller elsewhere: each call gets its own set of files made for it. */
export function remoteInput(): HostFiles {
  return { remote: true, made: new Set() };
}

/** Refused because the input came from elsewhere; its sentence never depends on the path. */
class HostFileRefusedError extends UsageError {
  override name = 'HostFileRefusedError';
}

/** What the refusal says about the input that named a file, and what to give instead. */
export interface HostFileUse {
  /** `` `file` ``, `the media header's file`. */
  named: string;
  /** `give the file's text as \`csv\``. */
  instead: string;
}

const GENERIC: HostFileUse = { named: 'a file', instead: "give the file's text instead" };

export function hostFileRefusal(use: HostFileUse = GENERIC): string {
  return `over HTTP, ${use.named} is refused: it would name a file of the machine wsm mcp runs on, which is neither read nor looked at for a caller elsewhere; ${use.instead}`;
}

/**
 * `path`, when the input it came from may name files of this machine; otherwise a refusal that
 * is the same for every path. Call it before any open, read or stat of a path the input gave.
 */
export function hostFile(ctx: { hostFiles?: HostFiles }, path: string, use?: HostFileUse): string {
  const files = ctx.hostFiles ?? LOCAL;
  if (files.remote && !files.made.has(path)) throw new HostFileRefusedError(hostFileRefusal(use));
  return path;
}

/** Whether the input may name files of this machine at all (a check that would otherwise stat one says so instead). */
export function readsHostFiles(ctx: { hostFiles?: HostFiles }): boolean {
  return !(ctx.hostFiles ?? LOCAL).remote;
}
