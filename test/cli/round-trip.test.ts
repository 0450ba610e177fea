// `contacts export | contacts import` leaves every contact exactly as it was:
// a property test over generated contacts whose names and field values hold line breaks of every
// kind, quotes, commas, leading = + - @, tabs, emoji, combining marks and right-to-left text. The
// real server on a real HTTP port and SQLite file; the CLI in-process; the import worker run by hand.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness, listen } from '../server/harness.js';
import { runPendingImports } from '../../src/server/workers/imports.js';
import { VISIBLE_PATTERN } from '../../src/api/schemas/common.js';
import { runCli } from './helpers.js';

let h: Harness;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  baseUrl = await listen(h);
});
afterAll(async () => {
  await h?.close();
});

const piece = fc.constantFrom(
  'a',
  'Zoë',
  ' ',
  ',',
  '"',
  '""',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '=',
  '+',
  '-',
  '@',
  "'",
  '😀',
  'e\u0301',
  'שלום',
  '\u200f',
  '7',
  ';',
  '[',
  '{',
);
const text = (maxParts: number) => fc.array(piece, { maxLength: maxParts }).map((parts) => parts.join(''));
const GROUPS = ['VIP', 'Friends, "close"; [family]', 'Ñúñez'];
const person = fc.record({
  // A name of only spaces, control, format and invisible characters is refused as blank (decisions.md).
  name: text(8).filter((name) => name === '' || new RegExp(VISIBLE_PATTERN).test(name)),
  note: text(12),
  email: fc.option(fc.constantFrom('ann@example.com', 'O.Brien+x@example.org'), { nil: undefined }),
  gender: fc.option(fc.constantFrom('male', 'female', 'other'), { nil: undefined }),
  status: fc.boolean(),
  groups: fc.subarray([0, 1, 2]),
});

const pick = (c: Record<string, unknown>) => ({
  number: c.number,
  name: c.name,
  email: c.email,
  gender: c.gender,
  status: c.status,
  fields: c.fields,
  groups: (c.contact_groups as Array<{ name: string }>).map((g) => g.name).sort(),
});

let runs = 0;
async function workspace(): Promise<{ id: string; groups: number[] }> {
  runs += 1;
  const id = (await h.create('/api/v3/workspaces', { name: `Run ${runs}` })).id as string;
  await h.create(`/api/v3/workspaces/${id}/contact-fields`, { name: 'note' });
  const groups = [];
  for (const name of GROUPS) groups.push((await h.create(`/api/v3/workspaces/${id}/contact-groups`, { name })).id as number);
  return { id, groups };
}

async function contactsOf(ws: string) {
  const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${ws}/contacts?per_page=100` });
  return (res.json().data as Array<Record<string, unknown>>).map(pick).sort((a, b) => String(a.number).localeCompare(String(b.number)));
}

it('export | import leaves every contact exactly as it was, whatever its text holds', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(person, { minLength: 1, maxLength: 4 }), async (people) => {
      const source = await workspace();
      for (const [i, p] of people.entries()) {
        const payload = {
          number: String(14_155_500_000 + runs * 10 + i),
          name: p.name,
          fields: { note: p.note },
          status: p.status,
          contact_groups: p.groups.map((g) => source.groups[g]),
          ...(p.email ? { email: p.email } : {}),
          ...(p.gender ? { gender: p.gender } : {}),
        };
        const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${source.id}/contacts`, payload });
        expect(res.statusCode, res.body).toBe(201);
      }
      const env = { WSM_BASE_URL: baseUrl, WSM_TOKEN: h.token, WSM_WORKSPACE: source.id };
      const exported = await runCli(['contacts', 'export'], { env, configDir: join(h.dir, 'config') });
      expect([exported.code, exported.stderr]).toEqual([0, '']);
      const file = join(h.dir, `export-${runs}.csv`);
      writeFileSync(file, exported.stdout);

      const target = await workspace();
      const imported = await runCli(['contacts', 'import', file, '-w', target.id, '-q'], { env, configDir: join(h.dir, 'config') });
      expect(imported.code, imported.stderr).toBe(0);
      await runPendingImports(h.app);
      const record = (
        await h.call({ method: 'GET', url: `/api/v3/workspaces/${target.id}/contact-imports/${imported.stdout.trim()}` })
      ).json().data;
      expect(record).toMatchObject({ status: 'completed', created_count: people.length, failed_count: 0 });
      expect(await contactsOf(target.id)).toEqual(await contactsOf(source.id));
    }),
    { numRuns: 15 },
  );
});
