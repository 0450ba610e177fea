/**
 * An undo made again, and undone in turn, end to end: a record the first undo
 * made again holds its name by then, so a second undo of the same delete flags it and sends
 * nothing (the server keeps names unique); the undo of that undo deletes it, and the undo of that
 * makes it again. On `wsm serve` for each resource whose delete it has, and on the stand-in of the
 * published API for contact fields (the only such delete it has), whose requests are counted.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

type Row = { id: number; name: string };

/** Each resource whose deleted records undo makes again: its command, its noun, a name it takes. */
const KINDS = [
  { resource: 'fields', noun: 'contact field', name: 'city' },
  { resource: 'labels', noun: 'label', name: 'Again' },
  { resource: 'groups', noun: 'contact group', name: 'Again' },
  { resource: 'roles', noun: 'role', name: 'Again' },
];

function undoAgainSuite(name: string, start: () => Promise<{ env: NodeJS.ProcessEnv; stop(): Promise<void> }>, kinds: typeof KINDS) {
  describe(`an undo made twice, and undone in turn, on ${name}`, () => {
    let env: NodeJS.ProcessEnv;
    let stop: () => Promise<void>;
    const run = (...args: string[]) => wsm(env, args);
    // The records made and deleted, and the reads of the records and the journal: in-process.
    const arrange = (...args: string[]) => wsmInProcess(env, args);
    const json = async (...args: string[]) => {
      const res = await arrange(...args, '-o', 'json');
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    const lastChange = async () => (await json('history'))[0].id as string;
    const named = async (resource: string, wanted: string) =>
      ((await json(resource, 'list', '--all')) as Row[]).filter((row) => row.name === wanted).map((row) => row.id);

    beforeAll(async () => {
      ({ env, stop } = await start());
    });
    afterAll(async () => {
      await stop?.();
    });

    for (const { resource, noun, name: recordName } of kinds) {
      it(`${resource}: a second undo of a delete flags the record made again and exits 0; undo of undo of undo makes it again`, async () => {
        const made = await json(resource, 'create', recordName);
        expect((await arrange(resource, 'delete', String(made.id), '--yes')).code).toBe(0);
        const deleted = await lastChange();
        const first = await run('undo', deleted, '--yes');
        expect([first.code, first.stderr]).toEqual([0, `✓ undid change ${deleted}: 0 set back, 0 deleted, 1 created again, 0 failed\n`]);
        const [again] = await named(resource, recordName);
        const undid = await lastChange();

        const from = standin?.requests.length;
        const second = await run('undo', deleted, '--yes');
        if (from !== undefined) expect(requestsSince(from).filter((line) => !line.startsWith('GET '))).toEqual([]);
        expect(second.stdout).toBe(
          `! record 1: skipped ${noun} ${made.id}\n    note: its name "${recordName}" is ${noun} ${again}'s now: not made again\n` +
            'Plan: 0 to create, 0 to update, 0 unchanged, 0 invalid, 1 skipped.\n',
        );
        expect(second.code, second.stderr).toBe(0);
        expect(await lastChange()).toBe(undid);
        expect(await named(resource, recordName)).toEqual([again]);

        const undoOfUndo = await run('undo', undid, '--yes');
        expect([undoOfUndo.code, undoOfUndo.stderr]).toEqual([
          0,
          `✓ undid change ${undid}: 0 set back, 1 deleted, 0 created again, 0 failed\n`,
        ]);
        expect(await named(resource, recordName)).toEqual([]);
        const third = await lastChange();
        const undoOfThat = await run('undo', third, '--yes');
        expect([undoOfThat.code, undoOfThat.stderr]).toEqual([
          0,
          `✓ undid change ${third}: 0 set back, 0 deleted, 1 created again, 0 failed\n`,
        ]);
        expect((await named(resource, recordName)).length).toBe(1);
      });
    }
  });
}

undoAgainSuite(
  'wsm serve',
  async () => {
    const server: Backend = await serveBackend();
    return {
      env: server.env,
      async stop() {
        await server.stop();
        cleanup(server.dir);
      },
    };
  },
  KINDS,
);

let standin: Standin;
let dir: string;
/** The requests the stand-in answered since `from`, its workspace path left out. */
const requestsSince = (from: number) => standin.requests.slice(from).map((line) => line.replace(/ \S*\/workspaces\/[^/]+/, ' '));

undoAgainSuite(
  'the stand-in of the published API',
  async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-undo-again-'));
    return {
      env: standin.env(dir),
      async stop() {
        await standin.close();
        cleanup(dir);
      },
    };
  },
  KINDS.slice(0, 1),
);

describe('the reads of an undo on the stand-in of the published API', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-undo-reads-'));
    env = standin.env(dir);
  });
  afterAll(async () => {
    if (standin) await standin.close();
    if (dir) cleanup(dir);
  });
  // Set-up and reads in-process.
  const json = async (...args: string[]) => {
    const res = await wsmInProcess(env, [...args, '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  };

  it('an undo of a change naming several contact fields (no read of one there) walks their list once, and sends no clash', async () => {
    const fields: Row[] = [];
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) fields.push(await json('fields', 'create', name));
    expect((await wsmInProcess(env, ['fields', 'delete', String(fields[0]!.id), '--yes'])).code).toBe(0);
    // The same change as `wsm apply --prune` keeps it: the four deleted, the first of them already made again since.
    const { id: _id, ...meta } = (await json('history'))[0];
    const id = '29991231-235959-998';
    const history = join(env.WSM_CONFIG_DIR!, 'history');
    const records = fields.map((field) => ({
      kind: 'resource',
      resource: 'fields',
      op: 'delete',
      id: field.id,
      before: field,
      after: null,
    }));
    writeFileSync(join(history, `${id}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
    writeFileSync(join(history, `${id}.json`), JSON.stringify({ ...meta, summary: 'apply ws.yaml', records: 4 }), { mode: 0o600 });
    const remade = await json('fields', 'create', 'alpha');
    for (const field of fields.slice(1)) expect((await wsmInProcess(env, ['fields', 'delete', String(field.id), '--yes'])).code).toBe(0);

    const from = standin.requests.length;
    const res = await wsm(env, ['undo', id, '--yes']);
    expect(res.stderr).toBe(
      `✓ undid change ${id}: 0 set back, 0 deleted, 3 created again, 0 failed; 1 record changed since or not restorable, left as it is (marked !)\n`,
    );
    expect(res.stdout).toContain(`note: its name "alpha" is contact field ${remade.id}'s now: not made again\n`);
    expect(res.code).toBe(0);
    const sent = requestsSince(from);
    expect(sent.filter((line) => /^GET \/contact-fields\b(?!\/)/.test(line))).toEqual(['GET /contact-fields']);
    expect(sent.filter((line) => !line.startsWith('GET '))).toEqual([
      'POST /contact-fields',
      'POST /contact-fields',
      'POST /contact-fields',
    ]);
  });
});
