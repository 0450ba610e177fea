/**
 * A contact's name is at most 50 characters, counted as the published API's Laravel counts them
 * (mb_strlen): an emoji is one character, though JavaScript's length counts it as two. A name of
 * 30 emoji is planned as created and created, by the import and by `contacts create|update`, on
 * `wsm serve` and on the stand-in of the published API alike; a name of 51 letters is refused by
 * both. The runs are the built binary's; the reads in-process (in-process.ts).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const EMOJI = '😀'.repeat(30);
const LONGEST = '😀'.repeat(50);

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`names counted in characters, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const listed = async () =>
      (
        JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ id: number; number: string; name: string }>
      ).map(({ id, number, name }) => ({ id, number, name }));

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('an import creates the contact its plan shows with a name of 30 emoji, and skips the name of 51 letters', async () => {
      const file = join(backend.dir, 'emoji.csv');
      writeFileSync(file, `number,name\n14155550901,${EMOJI}\n14155550902,${'a'.repeat(51)}\n`);
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      const plan = JSON.parse(dry.stdout) as {
        create: number;
        invalid: number;
        contacts: Array<{ number: string; after?: { name: string } }>;
      };
      expect([dry.code, plan.create, plan.invalid]).toEqual([8, 1, 1]);
      expect(plan.contacts.filter((c) => c.after !== undefined).map((c) => [c.number, c.after?.name])).toEqual([['14155550901', EMOJI]]);

      const res = await wsm(backend.env, ['contacts', 'import', file, '--wait', '--interval', '0.1s', '-q']);
      expect(res.code, res.stderr).toBe(8);
      expect((await listed()).map(({ number, name }) => [number, name])).toEqual([['14155550901', EMOJI]]);
    });

    it('contacts create and update take a name of 50 emoji', async () => {
      const made = await wsm(backend.env, ['contacts', 'create', '--number', '14155550903', '--name', LONGEST]);
      expect(made.code, made.stderr).toBe(0);
      const [first] = await listed();
      const updated = await wsm(backend.env, ['contacts', 'update', String(first.id), '--name', LONGEST]);
      expect(updated.code, updated.stderr).toBe(0);
      expect((await listed()).map(({ name }) => name)).toEqual([LONGEST, LONGEST]);
    });
  });
}
