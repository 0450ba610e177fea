/**
 * The real `wsm` binary on a real pseudo-terminal (`script`, util-linux), of a given width, and
 * small stand-in servers for what `wsm serve` does not do (hang, answer a foreign 404).
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import xterm from '@xterm/headless';
import { onTestFinished } from 'vitest';
import { BIN } from './processes.js';

export const sh = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

export interface TerminalRun {
  code: number | null;
  /** What the terminal showed (stdout and stderr both, unless redirected), `\r\n` made `\n`. */
  screen: string;
  /** The bytes as the terminal received them. */
  raw: string;
}

/** Text as read on a screen: colour and cursor codes dropped, every run of white space one space. */
const asRead = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\s+/g, ' ');

/**
 * Runs `wsm <args>` on a terminal `columns` wide, in the folder `cwd` (name a file there by its own
 * name: a path under the temp folder is as long as TMPDIR and would wrap). `redirect` is appended
 * to the shell command (`> out.csv` pipes stdout away while stderr stays on the terminal); `keys`
 * are typed once the screen shows `when` (a prompt, found even where the terminal wrapped it),
 * never on a timer; `beforeKeys` is called then, just before they are typed (what the server has
 * seen while the question is on screen; a promise it returns is awaited).
 */
export function onTerminal(
  env: NodeJS.ProcessEnv,
  args: string[],
  options: { columns?: number; cwd?: string; redirect?: string; keys?: string; when?: string; beforeKeys?: () => unknown } = {},
): Promise<TerminalRun> {
  const command = `stty cols ${options.columns ?? 80}; ${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(' ')} ${options.redirect ?? ''}`;
  return new Promise((resolve) => {
    const child = execFile('script', ['-qec', command, '/dev/null'], { env, cwd: options.cwd }, (error, stdout) => {
      const code = error ? ((error as { code?: number }).code ?? null) : 0;
      resolve({ code: typeof code === 'number' ? code : null, screen: stdout.replace(/\r\n/g, '\n'), raw: stdout });
    });
    // No timer of its own (a loaded machine is slow, not wrong): a prompt nobody answers ends with its test.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    if (options.keys !== undefined) {
      let seen = '';
      let typed = false;
      child.stdout!.on('data', (chunk: Buffer | string) => {
        seen += chunk.toString();
        if (!typed && asRead(seen).includes(options.when ?? '?')) {
          typed = true;
          // Awaited: a server in the test's own process answers only while the test waits.
          void Promise.resolve(options.beforeKeys?.()).finally(() => child.stdin!.write(options.keys!));
        }
      });
    }
  });
}

/**
 * What a person sees once the command is over: the bytes played on a terminal emulator (xterm.js,
 * headless) `columns` wide and 24 rows tall, read back with everything that scrolled off the top;
 * a line the terminal wrapped is joined back to the line it continues; trailing blank lines are
 * dropped.
 */
export function finalScreen(raw: string, columns: number): Promise<string[]> {
  const terminal = new xterm.Terminal({ cols: columns, rows: 24, scrollback: 100_000, allowProposedApi: true });
  return new Promise((resolve) => {
    terminal.write(raw, () => {
      const buffer = terminal.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) {
        const line = buffer.getLine(i)!;
        const text = line.translateToString(true);
        if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
        else lines.push(text);
      }
      while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
      terminal.dispose();
      resolve(lines.map((l) => l.trimEnd()));
    });
  });
}

/**
 * Lines of what a terminal shows, without colour codes; of a line redrawn after a carriage return
 * (a progress line, erased before what follows it), what was drawn last.
 */
export const plainLines = (screen: string) =>
  screen
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split('\n')
    .map((l) => l.slice(l.lastIndexOf('\r') + 1))
    .filter((l) => l !== '');

export interface FakeServer {
  url: string;
  close(): Promise<void>;
}

/** A bare HTTP server on 127.0.0.1 answering with `handler`; `/api/v3` is its base path. */
export async function fakeServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<FakeServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v3`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
