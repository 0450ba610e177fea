/**
 * `wsm undo` of a `wsm apply`, on the real binary: the inverse shown as a plan (`--dry-run` sends
 * nothing), carried out newest record first (the reverse of the apply's dependency order), and
 * then `wsm diff` of the file pulled before the apply finds no change. A record changed again
 * since is flagged and left alone unless `--force`; a request that fails makes it exit 8. Against
 * `wsm serve`, and the stand-in of the published API (where what has no inverse there is said).
 * The binary runs the first test's `undo --dry-run`, `undo --yes` and `diff`; every other run is
 * in-process (in-process.ts), the entry point the binary runs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEFORE } from './applied-workspace.js';
import { startStandin, type Standin } from '../standin/index.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, createUserArgs, wsm, type RunResult } from './processes.js';

const AFTER = [
  'fields: [plan_tier]',
  'groups: [VIP, Newsletter]',
  'labels:',
  '  - { name: urgent, color: "#00ff00" }',
  '  - { name: later }',
  'roles:',
  '  - { name: Agent, permissions: [contacts.view, contacts.update] }',
  '  - { name: Viewer, permissions: [contacts.view] }',
  'templates:',
  '  - { name: order_update, language: en, category: UTILITY, body: { text: "Your order {{1}} is on its way.", variables: ["A-1"] } }',
  '  - { name: shipped, language: en, category: UTILITY, body: { text: "Order {{1}} has shipped.", variables: ["A-1"] } }',
  '',
].join('\n');

/** AFTER with the first template's text changed: `--replace-templates` deletes it and makes it again. */
const REPLACING = AFTER.replace('is on its way.', 'has shipped.');

const lastChange = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await wsmInProcess(env, ['history', '-o', 'json'])).stdout) as Array<{ id: string }>)[0].id;
const outcome = (result: RunResult) => ({ code: result.code, stderr: result.stderr });

describe('wsm undo of an apply on wsm serve', () => {
  let server: Backend;
  const run = (...args: string[]) => wsmInProcess(server.env, args);
  const binary = (...args: string[]) => wsm(server.env, args);
  const file = (name: string) => join(server.dir, name);
  /** `wsm diff` of the file pulled before the apply, with --prune: what still differs. */
  const diffFromPulled = (way = run) => way('diff', '-f', file('pulled.yaml'), '--prune');

  beforeAll(async () => {
    server = await serveBackend();
    writeFileSync(file('before.yaml'), BEFORE);
    writeFileSync(file('after.yaml'), AFTER);
    expect((await run('apply', '-f', file('before.yaml'), '--yes')).code).toBe(0);
    expect((await run('pull', '-f', file('pulled.yaml'))).code).toBe(0);
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    if (server) cleanup(server.dir);
  });

  it('apply, then undo: --dry-run sends nothing; the undo leaves the workspace as pulled before', async () => {
    expect((await run('apply', '-f', file('after.yaml'), '--prune', '--yes')).code).toBe(0);
    const change = await lastChange(server.env);
    expect((await diffFromPulled()).code).toBe(2);

    const dry = await binary('undo', change, '--dry-run');
    expect(outcome(dry)).toEqual({ code: 0, stderr: '' });
    // Newest record first: the field the apply deleted is made again before anything else.
    const titles = dry.stdout.split('\n').filter((line) => /^\S+ record \d+:/.test(line));
    expect(titles.map((line) => /record (\d+)/.exec(line)![1])).toEqual(['8', '7', '6', '5', '4', '3', '2', '1']);
    expect(titles[0]).toBe('+ record 8: create contact field 1');
    expect(dry.stdout).toContain('    color: "#00ff00" -> "#ff0000"\n');
    expect((await diffFromPulled()).code).toBe(2);

    const undone = await binary('undo', change, '--yes');
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toMatch(new RegExp(`^✓ undid change ${change}: .*0 failed\\n$`));
    const diff = await diffFromPulled(binary);
    expect({ code: diff.code, stdout: diff.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('No changes') });

    // The undo is a change of its own: undone, the workspace is as the apply left it, but for the
    // template the undo deleted at the provider, which nothing brings back.
    const undo = await lastChange(server.env);
    const redone = await run('undo', undo, '--yes');
    expect(redone.code, redone.stderr).toBe(8);
    expect(redone.stderr).toContain(`error: 1 record of change ${undo} cannot be undone in full (see the plan's notes)`);
    expect(redone.stdout).toMatch(/^! record \d+: skipped template \d+\n {4}note: cannot be undone: a template deleted at the provider/m);
    const again = await run('diff', '-f', file('after.yaml'), '--prune');
    expect(again.stdout).toContain('+ templates shipped/en\n\nPlan: 1 to create, 0 to update, 0 to replace, 0 to delete.');
    expect((await run('apply', '-f', file('pulled.yaml'), '--prune', '--yes')).code).toBe(0);
  });

  it('a template the apply replaced cannot be made again: the one made in its place is kept, and the plan says so', async () => {
    writeFileSync(file('replacing.yaml'), REPLACING);
    expect((await run('apply', '-f', file('replacing.yaml'), '--prune', '--replace-templates', '--yes')).code).toBe(0);
    const change = await lastChange(server.env);
    const undone = await run('undo', change, '--yes');
    expect(undone.code, undone.stderr).toBe(8);
    expect(undone.stderr).toContain(`error: 2 records of change ${change} cannot be undone in full (see the plan's notes)`);
    expect(undone.stdout).toMatch(
      /^! record (\d+): skipped template \d+\n {4}note: kept: it replaced template \d+ \(record \d+\), which cannot be made again \(a template deleted at the provider/m,
    );
    const diff = await diffFromPulled();
    expect(diff.stdout).toContain(
      '! templates order_update/en body.text "Your order {{1}} has shipped." → "Your order {{1}} is on its way."',
    );
    expect(diff.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 1 blocked.');
    expect((await run('apply', '-f', file('pulled.yaml'), '--prune', '--replace-templates', '--yes')).code).toBe(0);
  });

  /** Applies AFTER, then sets the label `urgent` to blue by hand; the apply's change id. */
  async function appliedThenChanged(): Promise<string> {
    expect((await run('apply', '-f', file('after.yaml'), '--prune', '--yes')).code).toBe(0);
    const change = await lastChange(server.env);
    const labels = JSON.parse((await run('labels', 'list', '-o', 'json')).stdout) as Array<{ id: number; name: string }>;
    const urgent = labels.find((label) => label.name === 'urgent')!;
    expect((await run('labels', 'update', String(urgent.id), '--color', '#0000ff')).code).toBe(0);
    return change;
  }

  it('a record changed since is flagged and left alone; the rest is undone', async () => {
    const change = await appliedThenChanged();
    const kept = await run('undo', change, '--yes');
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/^! record 4: skipped label \d+\n {4}note: changed since: color is "#0000ff" now, neither "#00ff00"/m);
    const diff = await diffFromPulled();
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain(
      '~ labels urgent color "#0000ff" → "#ff0000"\n\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete.',
    );
    expect((await run('apply', '-f', file('pulled.yaml'), '--prune', '--yes')).code).toBe(0);
  });

  it('--force sets back a record changed since too', async () => {
    const change = await appliedThenChanged();
    const forced = await run('undo', change, '--yes', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(
      /^~ record 4: update label \d+\n {4}color: "#0000ff" -> "#ff0000"\n {4}note: changed since: .*set back \(--force\)/m,
    );
    expect((await diffFromPulled()).code).toBe(0);
  });

  it('a request that fails: the others are made, exit 8', async () => {
    expect((await run('apply', '-f', file('after.yaml'), '--prune', '--yes')).code).toBe(0);
    const change = await lastChange(server.env);
    // The role the apply made is given to a user: the server refuses to delete a role in use.
    const roles = JSON.parse((await run('roles', 'list', '-o', 'json')).stdout) as Array<{ id: number; name: string }>;
    expect((await run(...createUserArgs(String(roles.find((role) => role.name === 'Viewer')!.id)))).code).toBe(0);

    const undone = await run('undo', change, '--yes');
    expect(undone.code).toBe(8);
    expect(undone.stdout).toMatch(/^\d+\tfailed\t422\t/m);
    expect(undone.stderr).toMatch(/, 1 failed\nerror: 1 of 8 requests failed\n$/);
    const diff = await diffFromPulled();
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete.');
    expect(diff.stdout).toContain('- roles Viewer');
  });
});

describe('wsm undo of an apply on the stand-in of the published API', () => {
  let standin: Standin;
  let dir: string;
  const run = (...args: string[]) => wsmInProcess(standin.env(dir), args);
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-apply-undo-'));
  });
  afterAll(async () => {
    await standin?.close();
    if (dir) cleanup(dir);
  });

  it('fields, a label and a template: apply, undo, and the earlier pull diffs as no change', async () => {
    const start = 'fields: [city]\nlabels:\n  - { name: urgent, color: "#ff0000" }\n';
    writeFileSync(file('start.yaml'), start);
    expect((await run('apply', '-f', file('start.yaml'), '--yes')).code).toBe(0);
    const changed = [
      'fields: [plan_tier]',
      'labels:',
      '  - { name: urgent, color: "#00ff00" }',
      'templates:',
      '  - { name: order_update, language: en, category: UTILITY, body: { text: "Your order {{1}} is on its way.", variables: ["A-1"] } }',
      '',
    ].join('\n');
    writeFileSync(file('changed.yaml'), changed);
    // One state file for both: the labels and templates the apply made are known by the ids it kept.
    const state = ['--state', file('start.yaml.state.json')];
    expect((await run('apply', '-f', file('changed.yaml'), '--prune', ...state, '--yes')).code).toBe(0);
    const change = await lastChange(standin.env(dir));

    const sent = standin.requests.length;
    const undone = await run('undo', change, '--yes');
    expect(undone.code, undone.stderr).toBe(0);
    // One at a time, newest record first: the field the apply deleted is made again first, the one it made deleted last.
    const writes = standin.requests.slice(sent).filter((line) => !line.startsWith('GET '));
    expect(writes.map((line) => line.replace(/\/\d+$/, '/N').replace(/ \S*\/workspaces\/[^/]+/, ' '))).toEqual([
      'POST /contact-fields',
      'DELETE /templates/N',
      'PUT /labels/N',
      'DELETE /contact-fields/N',
    ]);
    const diff = await run('diff', '-f', file('start.yaml'), '--prune');
    expect({ code: diff.code, stdout: diff.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('No changes') });
    expect(standin.state.templates).toEqual([]);
  });

  it('what the published API cannot undo (deleting a group it has no delete for) is said per record', async () => {
    writeFileSync(file('groups.yaml'), 'groups: [Newsletter]\n');
    expect((await run('apply', '-f', file('groups.yaml'), '--yes')).code).toBe(0);
    const change = await lastChange(standin.env(dir));
    const dry = await run('undo', change, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^! record 1: .*contact group \d+/m);
    expect(dry.stdout).toContain(
      '    note: cannot be undone: this server has no delete for contact groups (an extension of wsm serve the published API lacks)\n',
    );
  });
});
