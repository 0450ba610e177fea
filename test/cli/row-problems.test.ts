// The row report's problems held compactly (cli/row-problems.ts) and a document whose keys stream
// them (cli/streamed-json.ts): what -o json and --rejects are made from, byte for byte.
import { describe, expect, it } from 'vitest';
import { mergedByRow, type RowProblem, RowProblems } from '../../src/cli/row-problems.js';
import type { Output } from '../../src/cli/output.js';
import { writeStreamedDocument } from '../../src/cli/streamed-json.js';
import { jsonText } from '../../src/cli/text.js';

const problemsOf = (list: RowProblem[]) => {
  const problems = new RowProblems();
  for (const problem of list) problems.add(problem);
  return problems;
};

const SOME: RowProblem[] = [
  { row: 2, line: 2, field: 'number', message: 'bad number' },
  { row: 3, line: 4, field: 'email', message: 'bad email' },
  { row: 3, line: 4, field: 'gender', message: 'bad gender' },
  { row: 5, line: 7, field: 'number', message: 'bad number' },
  { row: 6, line: 7 + 3, field: 'row', message: 'The row has 3 values but the header has 2 columns.' },
];

/** What the document's writer hands stdout, joined. */
async function written(parts: Parameters<typeof writeStreamedDocument>[1], indent: boolean): Promise<string> {
  let text = '';
  const output = { text: (piece: string) => (text += piece), drained: async () => {} } as unknown as Output;
  await writeStreamedDocument(output, parts, indent);
  return text;
}

describe('the row report problems', () => {
  it('gives back every problem in order, each line as added, and the messages of a line joined as the server joins them', () => {
    const problems = problemsOf(SOME);
    expect(problems.size).toBe(5);
    expect([...problems]).toEqual(SOME);
    expect(JSON.stringify(problems)).toBe(JSON.stringify(SOME));
    expect(problems.messagesAt(4)).toBe('bad email bad gender');
    expect(problems.messagesAt(10)).toBe('The row has 3 values but the header has 2 columns.');
    expect([1, 3, 5, 8, 11].map((line) => problems.messagesAt(line))).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('finds a line of problems added out of line order too', () => {
    const problems = problemsOf([SOME[3], SOME[0], SOME[1]]);
    expect([problems.messagesAt(2), problems.messagesAt(4), problems.messagesAt(7), problems.messagesAt(3)]).toEqual([
      'bad number',
      'bad email',
      'bad number',
      undefined,
    ]);
  });

  it('keeps 10,000 different messages; past them each problem keeps its place and field, its message saying it was not kept', () => {
    const problems = problemsOf(
      Array.from({ length: 12_000 }, (_, i) => ({
        row: i + 2,
        line: i + 2,
        field: i % 2 === 0 ? 'status' : 'number',
        message: `cell ${i}`,
      })),
    );
    expect(problems.at(9_999)).toEqual({ row: 10_001, line: 10_001, field: 'number', message: 'cell 9999' });
    expect(problems.at(10_000)).toEqual({
      row: 10_002,
      line: 10_002,
      field: 'status',
      message: "This status was refused; the reason is not kept: the file's refusals say more than 10,000 different things.",
    });
    expect(problems.at(11_999).message).toMatch(/^This number was refused; the reason is not kept/);
    // A message kept before the budget ran out is still said whole.
    problems.add({ row: 20_000, line: 20_000, field: 'number', message: 'cell 1' });
    expect(problems.messagesAt(20_000)).toBe('cell 1');
  });

  it("merges a sheet's rows not sent into the report's, in row order", () => {
    const merged = mergedByRow(problemsOf([SOME[0], SOME[3]]), [{ row: 4, line: 4, field: 'B4', message: 'error cell' }]);
    expect([...merged].map((problem) => problem.row)).toEqual([2, 4, 5]);
  });
});

describe('a streamed document', () => {
  const document = {
    file: 'a.csv',
    columns: ['number', 'name'],
    rows: 4,
    absent: undefined,
    problems: problemsOf(SOME),
    empty: problemsOf([]),
    unknown_columns: [],
    fields_checked: true,
    note: 'control \u0085 and \u202e',
  };

  for (const indent of [true, false])
    it(`writes the bytes of jsonText of the whole (${indent ? 'indented' : 'one line'}), iterable keys an item at a time`, async () => {
      const whole = jsonText({ contacts: [{ a: 1 }, { b: [2] }], ...document, counts: { create: 1 } }, indent) + '\n';
      async function* contacts() {
        yield { a: 1 };
        yield { b: [2] };
      }
      expect(await written([{ contacts: contacts() }, async () => document, { counts: { create: 1 } }], indent)).toBe(whole);
      expect(await written([async () => document], indent)).toBe(jsonText(document, indent) + '\n');
      expect(await written([{ contacts: contacts() }], indent)).toBe(jsonText({ contacts: [{ a: 1 }, { b: [2] }] }, indent) + '\n');
      expect(await written([], indent)).toBe('{}\n');
    });
});
