/**
 * Real processes for end-to-end tests: `wsm serve` on a temp database and the
 * real `wsm` binary, both with a temp config directory. Requires `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

export const BIN = resolve(import.meta.dirname, '../../bin/wsm.js');

/** `wsm templates create` of a UTILITY template named `name` with one variable, as the e2e cases make it. */
export const createTemplateArgs = (name: string): string[] => [
  'templates',
  'create',
  '--name',
  name,
  '--language',
  'en',
  '--category',
  'UTILITY',
  '--body',
  'Your order {{1}} is on its way.',
  '--variable',
  'A-1',
];

/** `wsm users create` of Dee (dee@example.com) with the role given. */
export const createUserArgs = (role: string, password = 'long password'): string[] => [
  'users',
  'create',
  '--name',
  'Dee',
  '--email',
  'dee@example.com',
  '--password',
  password,
  '--role',
  role,
];

/**
 * Dee (createUserArgs) with a role named `role` holding only `permissions`, logged in through `run`
 * as the profile `dee`, which the login makes current.
 */
export async function loginWithRole(
  run: (args: string[], input?: string) => Promise<RunResult>,
  url: string,
  role: string,
  permissions: string[],
): Promise<void> {
  const made = await run(['roles', 'create', role, ...permissions.flatMap((permission) => ['--permission', permission]), '-q']);
  expect(made.code, made.stderr).toBe(0);
  expect((await run(createUserArgs(made.stdout.trim()))).code).toBe(0);
  const login = await run(
    ['auth', 'login', '--profile', 'dee', '--email', 'dee@example.com', '--password-stdin', '--base-url', url],
    'long password\n',
  );
  expect(login.code, login.stderr).toBe(0);
}

export interface Served {
  url: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  kill(): Promise<void>;
}

export function testEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WSM_CONFIG_DIR: join(dir, 'config'), WSM_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
  for (const key of ['WSM_TOKEN', 'WSM_BASE_URL', 'WSM_WORKSPACE', 'WSM_PROFILE', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'])
    delete env[key];
  return env;
}

/** `wsm <args>` as a process of its own, once it printed "Listening on <url>" (however long that takes; it fails if wsm exits first). */
export async function listening(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const name = `wsm ${args[0]}`;
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /Listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`${name} exited ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

/** The `local` profile `wsm serve` saved in its config directory: the token and workspace it seeded. */
export function localProfile(served: { dir: string }): { token: string; workspace: string } {
  return JSON.parse(readFileSync(join(served.dir, 'config', 'config.json'), 'utf8')).profiles.local;
}

export async function serve(args: string[] = [], existingDir?: string): Promise<Served> {
  const dir = existingDir ?? mkdtempSync(join(tmpdir(), 'wsm-e2e-'));
  const env = testEnv(dir);
  const { child, url, stderr, exited } = await listening(['serve', '--port', '0', '--db', join(dir, 'wsm.db'), ...args], env);
  return {
    url,
    dir,
    env,
    process: child,
    stderr,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real binary with no terminal (stdin closed unless `input` is given). */
export function wsm(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** The real binary with pipes, read as it writes: for a test that signals it or waits for a line. */
export function spawned(
  env: NodeJS.ProcessEnv,
  args: string[],
): { child: ChildProcess; stdout(): string; stderr(): string; code: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, stdout: () => stdout, stderr: () => stderr, code: new Promise((resolve) => child.on('close', resolve)) };
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A port on 127.0.0.1 that another listener holds, until `release()`. */
export async function heldPort(): Promise<{ port: number; release: () => void }> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return { port: (holder.address() as AddressInfo).port, release: () => holder.close() };
}
