/**
 * A quote that opens a value and never closes. wsm's reader costs that row its own line; the
 * stand-in of the published API reads RFC 4180 to the letter and takes every line after it into
 * that value, so the rows the plan shows as created would never exist. On a server whose reading
 * of a file is not known (the stand-in, wsm serve --api-only) such a file is refused before anything
 * is sent, in the dry run as in the run (its other cases on the stand-in alone); on wsm serve the row alone fails, as its plan says. A file
 * whose quotes all close goes as before. The real binary on each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsm } from './processes.js';

const MAX_NED_OLI = 'number,name\n+351920000051,"Max\n+351920000052,Ned\n+351920000053,Oli\n';

/** The one line a refused file gets: the line where the quote opens, and why nothing was sent. */
const refusal = (file: string, where: string) =>
  `error: ${file} ${where}: a quote opens a value and never closes: nothing was sent, since how this server reads the rest of the file is not known (a reader that follows RFC 4180 takes every line after it into that value); close the quote, or double it ("") where it is part of the text, then import again\n`;

for (const kind of [BACKENDS[2], BACKENDS[1]]) {
  describe(`a quote that never closes, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    const listed = async (what: 'contacts' | 'imports') => JSON.parse((await run(what, 'list', '-o', 'json')).stdout) as unknown[];

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('is refused before anything is sent, naming the line where it opens: the dry run and the run alike', async () => {
      const file = backendFile(backend, 'people.csv', MAX_NED_OLI);
      for (const args of [['--dry-run'], ['--wait', '--interval', '0.05s'], ['--apply-flagged']]) {
        const result = await run('contacts', 'import', file, ...args);
        expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
          code: 2,
          stderr: refusal(file, 'line 2'),
          stdout: '',
        });
      }
      const created = await run('imports', 'create', file);
      expect([created.code, created.stderr]).toEqual([2, refusal(file, 'line 2')]);
      expect(await listed('contacts')).toEqual([]);
      expect(await listed('imports')).toEqual([]);
    });

    // The rest once, on the stand-in: the refusal does not depend on which server lacks the extensions.
    if (kind !== BACKENDS[2]) return;

    it('two quotes that open and do not close (even in number) are refused too, at the one wsm reads as never closed', async () => {
      const file = backendFile(
        backend,
        'two.csv',
        'number,name\n+351920000061,"Max\n+351920000062,Ned\n+351920000063,"Oli\n+351920000064,Pia\n',
      );
      const result = await run('contacts', 'import', file, '--wait', '--interval', '0.05s');
      expect([result.code, result.stderr]).toEqual([2, refusal(file, 'line 4')]);
      expect(await listed('contacts')).toEqual([]);
    });

    it('a stray quote inside a value, the only one of the file, is refused: a reader of RFC 4180 never leaves it', async () => {
      const file = backendFile(backend, 'stray.csv', 'number,name\n+351920000071,Ma"x\n+351920000072,Ned\n');
      const result = await run('contacts', 'import', file, '--dry-run');
      expect([result.code, result.stderr]).toEqual([2, refusal(file, 'line 2')]);
    });

    it('a file whose quotes all close, over several lines too, is sent as before', async () => {
      const file = backendFile(
        backend,
        'closed.csv',
        'number,name,city\n+351920000081,"Smith, J","Porto\nNorte"\n+351920000082,"Ann ""A""",\n+351920000083,Oli,","\n',
      );
      const result = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).summary).toMatchObject({ created: 3, failed: 0 });
      const names = (await listed('contacts')).map((contact) => (contact as { name: string }).name).sort();
      expect(names).toEqual(['Ann "A"', 'Oli', 'Smith, J']);
    });
  });
}

describe('a quote that never closes, against wsm serve, which reads a file as wsm does', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);
  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('costs that row alone: the plan and the run agree, Ned and Oli are created', async () => {
    const file = backendFile(backend, 'people.csv', MAX_NED_OLI);
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 unchanged, 1 invalid.\n');
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
    expect(imported.code, imported.stderr).toBe(8);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ created: 2, failed: 1 });
    const numbers = (JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as { number: string }[]).map((c) => c.number);
    expect(numbers.sort()).toEqual(['351920000052', '351920000053']);
  });
});
