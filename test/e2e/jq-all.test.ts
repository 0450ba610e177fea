/**
 * `wsm contacts list --all --jq` over 2,000 contacts, against a real `wsm serve`. jq read its
 * input at a copy of the rest for every byte, so this took 93 s (and 155 s on the operator's
 * machine); now a few seconds, and the same output as jq on the list.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';
import { binaryFirstRunner } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

const COUNT = 2000;
let server: Backend;

beforeAll(async () => {
  server = await serveBackend();
  const file = join(server.dir, 'many.csv');
  // Every 500th contact inactive.
  const rows = Array.from({ length: COUNT }, (_, i) => `1415${String(5000000 + i)},Person ${i},${i % 500 === 7 ? 'false' : 'true'}`);
  writeFileSync(file, `number,name,status\n${rows.join('\n')}\n`);
  const imported = await wsm(server.env, ['contacts', 'import', file, '--wait', '--interval', '0.2s']);
  expect(imported.code, imported.stderr).toBe(0);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('--all --jq reads the whole list', () => {
  it("output.md's first example over 2,000 contacts selects from every page", async () => {
    const res = await wsm(server.env, ['contacts', 'list', '--all', '--jq', '.[] | select(.status == false) | .number']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(['14155000007', '14155000507', '14155001007', '14155001507'].join('\n') + '\n');
  });

  it('gives what jq gives on `--all -o json`, element by element, collected or whole', async () => {
    const json = await wsm(server.env, ['contacts', 'list', '--all', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const jq = await (await import('jq-wasm')).loadJq();
    for (const expression of [
      '.[] | select(.status == false) | .number',
      'map(select(.status == false)) | map(.name)',
      '[.[].number] | .[-1]',
      'group_by(.status) | map(length)',
    ]) {
      const res = await wsm(server.env, ['contacts', 'list', '--all', '--jq', expression]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(`${jq.raw(json.stdout, expression, ['-r', '-c']).stdout}\n`);
    }
  });

  it("prints jq's output whole: an empty last line, a value's outer spaces, one line a result as jq gives them", async () => {
    // No contact has an e-mail: one empty line for each of the four inactive contacts, as `jq -r` prints them.
    const empty = await wsm(server.env, ['contacts', 'list', '--all', '--jq', '.[] | select(.status == false) | .email // ""']);
    expect(empty).toMatchObject({ code: 0, stdout: '\n\n\n\n', stderr: '' });
    const spaced = await wsm(server.env, ['contacts', 'list', '--all', '--jq', '.[-1] | " \\(.name) ", ""']);
    expect(spaced).toMatchObject({ code: 0, stdout: ` Person ${COUNT - 1} \n\n`, stderr: '' });
    const one = await wsm(server.env, ['contacts', 'list', '--page', '1', '--jq', '.[0] | "\\(.name)\\t"']);
    expect(one).toMatchObject({ code: 0, stdout: 'Person 0\t\n', stderr: '' });
  });

  it('an expression over the whole list sees all of it', async () => {
    const res = await wsm(server.env, ['contacts', 'list', '--all', '--jq', '[length, (map(select(.status)) | length), .[-1].name]']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([COUNT, COUNT - 4, `Person ${COUNT - 1}`]);
  });
});
