/**
 * `wsm mcp`'s history.list and history.undo against the stand-in of the published API: the undo
 * comes back as a plan and changes nothing until `confirm: true`, then sets the contact back and
 * is journaled itself. The operation tools' writes (labels.update, contacts.update) are journaled
 * under the tool's name, once each. The binary runs `wsm mcp` and one `wsm history`; the CLI's set-up
 * and read-backs run in-process (in-process.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { startMcp, textOf, type McpSession } from './mcp-helpers.js';
import { wsmInProcess } from './in-process.js';
import { cleanup, wsm } from './processes.js';

let standin: Standin;
let dir: string;
let mcp: McpSession;
beforeAll(async () => {
  standin = await startStandin({ importDelayMs: 50 });
  dir = mkdtempSync(join(tmpdir(), 'wsm-mcp-undo-'));
  mcp = await startMcp(standin.env(dir));
});
afterAll(async () => {
  if (mcp) expect(await mcp.close()).toEqual({ code: 0, signal: null });
  await standin?.close();
  cleanup(dir);
});

describe('wsm mcp: history.list and history.undo', () => {
  it('lists the change, returns the undo as a plan, and makes it only with confirm', async () => {
    const env = standin.env(dir);
    expect((await wsmInProcess(env, ['contacts', 'create', '--number', '14155550301', '--name', 'Ann'])).code).toBe(0);
    const id = JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout)[0].id;
    expect((await wsmInProcess(env, ['contacts', 'update', String(id), '--name', 'Bob'])).code).toBe(0);

    const listed = await mcp.call('history.list', { limit: 1 });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const [change] = (listed.structuredContent as { changes: Array<{ id: string; summary: string }> }).changes;
    expect(change.summary).toBe(`contacts update ${id}`);

    const planned = await mcp.call('history.undo', { change: change.id });
    expect(planned.isError, textOf(planned)).toBeFalsy();
    expect(planned.structuredContent).toMatchObject({
      plan: { update: 1, contacts: [{ action: 'update', id, changes: { name: { from: 'Bob', to: 'Ann' } } }] },
    });
    expect(planned.structuredContent).not.toHaveProperty('results');
    expect(JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout)[0].name).toBe('Bob');

    const made = await mcp.call('history.undo', { change: change.id, confirm: true });
    expect(made.isError, textOf(made)).toBeFalsy();
    expect(made.structuredContent).toMatchObject({ results: [{ id, outcome: 'set back', status: 200 }] });
    expect(JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout)[0].name).toBe('Ann');
    const history = JSON.parse((await wsm(env, ['history', '-o', 'json'])).stdout);
    expect(history[0]).toMatchObject({ summary: `undo ${change.id}`, undoes: change.id, command: `wsm mcp: history.undo ${change.id}` });
  });

  it('contacts.import is journaled: history.undo with confirm deletes what it created and sets back what it updated', async () => {
    const env = standin.env(dir);
    const names = async () =>
      (JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout) as Array<{ number: string; name: string }>).map(
        ({ number, name }) => `${number} ${name}`,
      );
    const before = await names();
    expect(before).toEqual(['14155550301 Ann']);
    const imported = await mcp.call('contacts.import', {
      csv: 'number,name\n14155550301,Imported Ann\n14155550302,New Ben\n',
      name: 'people.csv',
      wait: true,
      confirm: true,
    });
    expect(imported.isError, textOf(imported)).toBeFalsy();
    const [change] = (
      JSON.parse((await wsmInProcess(env, ['history', '-o', 'json'])).stdout) as Array<{ id: string; summary: string; command: string }>
    ).slice(0, 1);
    expect({ summary: change.summary, command: change.command }).toEqual({
      summary: 'contacts.import people.csv (csv text, 2 rows)',
      command: 'wsm mcp: contacts.import people.csv (csv text, 2 rows)',
    });
    const made = await mcp.call('history.undo', { change: change.id, confirm: true });
    expect(made.isError, textOf(made)).toBeFalsy();
    expect((made.structuredContent as { results: Array<{ outcome: string }> }).results.map((r) => r.outcome).sort()).toEqual([
      'deleted',
      'set back',
    ]);
    expect(await names()).toEqual(before);
  });

  it('an operation tool is journaled under its name: labels.update, then history.undo with confirm sets the label back', async () => {
    const env = standin.env(dir);
    const label = JSON.parse((await wsmInProcess(env, ['labels', 'create', 'VIP', '-o', 'json'])).stdout);
    const updated = await mcp.call('labels.update', { id: label.id, name: 'Gold' });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    const [change] = JSON.parse((await wsmInProcess(env, ['history', '-o', 'json'])).stdout) as Array<{
      id: string;
      command: string;
      summary: string;
    }>;
    expect([change.command, change.summary]).toEqual([`wsm mcp: labels.update ${label.id}`, `labels update ${label.id}`]);
    const planned = await mcp.call('history.undo', { change: change.id });
    expect(planned.structuredContent).toMatchObject({
      plan: {
        update: 1,
        contacts: [{ action: 'update', id: label.id, label: `label ${label.id}`, changes: { name: { from: 'Gold', to: 'VIP' } } }],
      },
    });
    const made = await mcp.call('history.undo', { change: change.id, confirm: true });
    expect(made.isError, textOf(made)).toBeFalsy();
    expect(made.structuredContent).toMatchObject({ results: [{ id: label.id, outcome: 'set back', status: 200 }] });
    expect(JSON.parse((await wsmInProcess(env, ['labels', 'get', String(label.id), '-o', 'json'])).stdout).name).toBe('VIP');
    // An id that names no record: the server's answer says so, and the journal keeps nothing of it.
    const kept = JSON.parse((await wsmInProcess(env, ['history', '-o', 'json'])).stdout).length;
    const wrong = await mcp.call('labels.update', { id: 'no-such', name: 'X' });
    expect(wrong.isError).toBe(true);
    const after = await wsmInProcess(env, ['history', '-o', 'json']);
    expect([after.code, after.stderr, JSON.parse(after.stdout).length]).toEqual([0, '', kept]);
  });

  it('a contacts tool is journaled once, as a contact: contacts.update undone by history.undo', async () => {
    const env = standin.env(dir);
    const [ann] = JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout) as Array<{ id: number; name: string }>;
    const before = (await wsmInProcess(env, ['history', '-o', 'json'])).stdout;
    const updated = await mcp.call('contacts.update', { id: ann.id, name: 'Agent Ann' });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    const history = JSON.parse((await wsmInProcess(env, ['history', '-o', 'json'])).stdout) as Array<{
      id: string;
      command: string;
      summary: string;
    }>;
    expect(history.length).toBe(JSON.parse(before).length + 1);
    expect([history[0].command, history[0].summary]).toEqual([`wsm mcp: contacts.update ${ann.id}`, `contacts update ${ann.id}`]);
    const made = await mcp.call('history.undo', { change: history[0].id, confirm: true });
    expect(made.structuredContent).toMatchObject({ results: [{ id: ann.id, outcome: 'set back' }] });
    expect(JSON.parse((await wsmInProcess(env, ['contacts', 'list', '-o', 'json'])).stdout)[0].name).toBe(ann.name);
  });
});
