/**
 * --jq over a whole list: jq runs in a thread of its own, on parts of the list when the
 * expression takes the elements one by one, and gives the output jq gives on the whole list.
 * Where the list's size is the point (the CLI's own 4 MB threshold, output before the list ends,
 * the walk waiting for jq) the list is about 6 MB; the other cases run on about 900 KB with jq's
 * thread taken from 400 KB: the same first part and pieces after it, a sixth of jq's work.
 */
import { describe, expect, it } from 'vitest';
import { runJqOverList } from '../../src/cli/jq-list.js';
import { eachElementAlone, overInputs, runJq } from '../../src/cli/jq.js';

describe('eachElementAlone: which expressions may run on parts of the list', () => {
  it.each([
    ['.[]', true],
    ['.[].number', true],
    [' .[]? .name ', true],
    ['.[] | select(.status == false) | .number', true],
    ['.[] | select(.name | test("a|b")) | [.id, .name]', true],
    ['.[] | {id, name}', true],
    ['length', false],
    ['map(.name)', false],
    ['.[0]', false],
    ['[.[] | .id]', false],
    ['.[] |= .name', false],
    ['.[].number, 5', false],
    ['.[] as $c | $c.name', false],
    ['.[] | select(.name == "a|b")', true],
    ['.["a|b"] | .id', false],
    ['.[] | if .id == 5 then halt else .id end', false],
    ['.[] | [., input]', false],
    ['def f: .id; .[] | f', false],
    ['.[] # a comment | length', false],
  ])('%s -> %s', (expression, expected) => {
    expect(eachElementAlone(expression)).toBe(expected);
  });
});

describe('overInputs: which expressions run over the elements given one by one', () => {
  it.each([
    ['.[] | select(.status == false) | .number', 'inputs | (.| select(.status == false) | .number)'],
    ['.[].name', 'inputs | (.name)'],
    ['map(select(.status == false)) | length', '[inputs | (select(.status == false))] | length'],
    ['map(.name)', '[inputs | (.name)]'],
    ['[.[] | select(.name == "a)|b")] | .[0]', '[inputs | (.| select(.name == "a)|b"))] | .[0]'],
    ['[.[].name] | unique', '[inputs | (.name)] | unique'],
    ['[.[] | "\\(.id))"] | join(",")', '[inputs | (.| "\\(.id))")] | join(",")'],
    ['\n map($__loc__)', '\n [inputs | ($__loc__)]'],
    ['map(.a)[0]', undefined],
    ['map(.a) |= 1', undefined],
    ['map(.a), 1', undefined],
    ['map(.a)?', undefined],
    ['map(input)', undefined],
    ['map(.a # ) | length\n)', undefined],
    ['[.[0]] | length', undefined],
    ['[.[] as $c | $c.id]', undefined],
    ['[.[].a, .[].b]', undefined],
    ['length', undefined],
  ])('%j -> %j', (expression, expected) => {
    expect(overInputs(expression)).toBe(expected);
  });
});

async function* rowsOf<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

async function overList(rows: unknown[], expression: string, pretty = false, threadChars?: number) {
  const writes: string[] = [];
  const count = await runJqOverList(rowsOf(rows), expression, { pretty, write: (text) => writes.push(text), threadChars });
  return { count, writes, text: writes.join('') };
}

describe('runJqOverList', () => {
  // About 6 MB of JSON: more than one part.
  const many = Array.from({ length: 40_000 }, (_, i) => ({
    id: i + 1,
    number: String(14155550000 + i),
    status: i % 1000 !== 0,
    note: 'x'.repeat(100),
  }));
  // About 900 KB: past a 400 KB threshold, then several pieces, as `many` is past the CLI's.
  const some = many.slice(0, 6_000);
  const SOME_THREAD_CHARS = 400_000;
  const overSome = (rows: unknown[], expression: string, pretty = false) => overList(rows, expression, pretty, SOME_THREAD_CHARS);

  it('an element-by-element expression takes the elements as they come, with the output of jq on the whole list', async () => {
    const expression = '.[] | select(.status == false) | .number';
    const result = await overList(many, expression);
    expect(result.count).toBe(40_000);
    expect(result.text).toBe(await runJq(many, expression, { pretty: false }));
    expect(result.text.split('\n').slice(0, 3)).toEqual(['14155550000', '14155551000', '14155552000']);
  });

  it("prints jq's output as it comes, before the list has ended", async () => {
    let firstWrite: () => void = () => undefined;
    const written = new Promise<void>((resolve) => {
      firstWrite = resolve;
    });
    async function* slowEnd() {
      yield* many.slice(0, 35_000);
      // The rest comes only once output has been written (or the test fails after 10 s).
      await Promise.race([written, new Promise((_, fail) => setTimeout(() => fail(new Error('no output before the end')), 10_000))]);
      yield* many.slice(35_000);
    }
    const writes: string[] = [];
    const count = await runJqOverList(slowEnd(), '.[].note', {
      pretty: false,
      write: (text) => {
        writes.push(text);
        firstWrite();
      },
    });
    expect(count).toBe(40_000);
    expect(writes.join('')).toBe(await runJq(many, '.[].note', { pretty: false }));
  });

  it('reads the list no faster than jq takes it: the walk waits while jq is behind', async () => {
    let pulled = 0;
    let pulledAtFirstWrite: number | undefined;
    async function* counted() {
      for (const row of many) {
        pulled++;
        yield row;
      }
    }
    const writes: string[] = [];
    await runJqOverList(counted(), '.[] | tojson', {
      pretty: false,
      threadChars: 0,
      write: (text) => {
        pulledAtFirstWrite ??= pulled;
        writes.push(text);
      },
    });
    expect(writes.join('')).toBe(await runJq(many, '.[] | tojson', { pretty: false }));
    // jq's first 64 kB of output come from its first pieces of the list (about 430 contacts each):
    // the walk is then at most some 17 pieces ahead, not at the end of the list.
    expect(pulledAtFirstWrite).toBeLessThan(20_000);
  });

  it('output that begins or ends with spaces joins across parts as on the whole list', async () => {
    const spaced = some.map((row, i) => ({ ...row, name: i % 2 === 0 ? ` Ann ${i} ` : `\tBob ${i}\n` }));
    for (const expression of ['.[].name', '.[] | select(.id > 5990) | .name', '.[] | select(.id < 3) | " "']) {
      const result = await overSome(spaced, expression);
      expect(result.text).toBe(await runJq(spaced, expression, { pretty: false }));
    }
    expect((await overSome(spaced, '.[].name')).text.split('\n').slice(0, 3)).toEqual([' Ann 0 ', '\tBob 1', '']);
  });

  it("jq's output is whole, as jq prints it: a last empty line and a value's outer spaces are kept, on a short list and a long one", async () => {
    expect(await runJq([{ email: 'a@x.io' }, { email: null }], '.[] | .email // ""', { pretty: false })).toBe('a@x.io\n\n');
    expect(await runJq({ name: ' Ann ' }, '.name', { pretty: false })).toBe(' Ann \n');
    expect(await runJq([], '.[]', { pretty: false })).toBe('');
    expect(await runJq({ name: 'Ann' }, '.name # a comment ends the line', { pretty: false })).toBe('Ann\n');
    const lastEmpty = some.map((row, i) => ({ ...row, email: i === some.length - 1 ? null : `p${i}@x.io` }));
    const text = (await overSome(lastEmpty, '.[] | .email // ""')).text;
    expect(text.endsWith('p5998@x.io\n\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(some.length + 1);
    expect((await overSome(lastEmpty, '[.[] | .email // ""] | .[-1]')).text).toBe('\n');
  });

  it('any other expression sees the whole list at once', async () => {
    expect((await overSome(some, 'length')).text).toBe('6000\n');
    expect((await overSome(some, 'map(select(.status == false)) | length')).text).toBe('6\n');
    expect((await overList([], 'length')).text).toBe('0\n');
    expect((await overList([], '.[].id')).text).toBe('');
  });

  it('a whole-list expression reads a long list in pieces as it comes, with the output of jq on the whole list', async () => {
    // Names beyond ASCII: jq's reads cut the text anywhere, through a character's bytes too.
    const named = some.map((row, i) => ({ ...row, name: i % 7 === 0 ? `Zoë ${i} 🙂` : `Ann ${i}` }));
    for (const [expression, pretty] of [
      ['map(select(.status == false)) | map(.name)', false],
      ['[length, (map(.id) | add), .[-1].name, .[5999].number]', false],
      ['group_by(.status) | map({status: .[0].status, count: length})', true],
      ['.[0], .[-1] | halt', true],
    ] as const) {
      const result = await overSome(named, expression, pretty);
      expect(result.count).toBe(6_000);
      expect(result.text).toBe(await runJq(named, expression, { pretty }));
    }
    expect((await overSome(named, '[length, .[7].name]')).text).toBe('[6000,"Zoë 7 🙂"]\n');
  });

  it('an expression that collects what each element gives takes the elements as they come, with the output of jq on the whole list', async () => {
    for (const [expression, pretty] of [
      ['map(select(.status == false)) | length', false],
      ['[.[] | select(.status == false) | {id, number}] | .[1:]', true],
      ['map(.id) | add', false],
      ['[.[].number] | .[-1]', false],
      ['map($__loc__) | unique', false],
    ] as const) {
      const result = await overSome(some, expression, pretty);
      expect(result.count).toBe(6_000);
      expect(result.text).toBe(await runJq(some, expression, { pretty }));
    }
    const failing = 'map(if .id == 3000 then error("stop at \\(.id)") else . end) | length';
    await expect(overSome(some, failing)).rejects.toMatchObject({ message: '--jq: stop at 3000', exitCode: 1 });
    await expect(runJq(some, failing, { pretty: false })).rejects.toMatchObject({ message: '--jq: stop at 3000' });
  });

  it('a list shorter than a part is read whole, then jq runs once', async () => {
    const few = many.slice(0, 2000);
    const result = await overList(few, '.[] | select(.status == false) | .number');
    expect(result.writes).toEqual(['14155550000\n14155551000\n']);
    expect((await overList(few, 'map(.id) | add')).text).toBe('2001000\n');
  });

  it('a list that fails while it is read stops jq and gives its own error', async () => {
    async function* failing() {
      yield* some;
      throw new Error('page 41 failed');
    }
    for (const expression of ['length', '.[].id']) {
      const reading = runJqOverList(failing(), expression, { pretty: false, write: () => undefined, threadChars: SOME_THREAD_CHARS });
      await expect(reading).rejects.toThrow('page 41 failed');
    }
  });

  it('values are indented on a terminal, compact when piped; strings raw', async () => {
    const rows = [{ id: 1, name: 'Ann' }];
    expect((await overList(rows, '.[] | {id}', true)).text).toBe('{\n  "id": 1\n}\n');
    expect((await overList(rows, '.[] | {id}')).text).toBe('{"id":1}\n');
    expect((await overList(rows, '.[].name')).text).toBe('Ann\n');
  });

  it("data that makes jq fail: exit 1 with jq's sentence", async () => {
    await expect(overList([{ id: 1 }, { id: 'x' }], '.[] | .id + 1')).rejects.toMatchObject({
      message: '--jq: string ("x") and number (1) cannot be added',
      exitCode: 1,
    });
    await expect(overSome(some, 'map(.id + "a")')).rejects.toMatchObject({ exitCode: 1 });
  });
});
