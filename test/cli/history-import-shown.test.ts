// `wsm history show` of an import says what the import did as the import itself counted it: a
// contact its rows left as it was is unchanged (counted, not listed), and a contact whose outcome
// was never read (an import without --wait) shows no value as emptied, since an import never
// clears one. The real server on an HTTP port and a SQLite file, its import worker running; the
// CLI in-process, its change journal in the test's folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, listen } from '../server/harness.js';
import { runCli } from './helpers.js';

let h: Harness;
let cli: (args: string[]) => ReturnType<typeof runCli>;
beforeAll(async () => {
  h = await createHarness({ workers: true });
  const baseUrl = await listen(h);
  const env = {
    WSM_BASE_URL: baseUrl,
    WSM_TOKEN: h.token,
    WSM_WORKSPACE: h.ws,
    WSM_DATA_DIR: join(h.dir, 'data'),
  };
  cli = (args) => runCli(args, { env, configDir: join(h.dir, 'config') });
});
afterAll(async () => {
  await h?.close();
});

describe("an import's change as history shows it", () => {
  it('a contact the rows leave as it was is unchanged, as the import counts it', async () => {
    const contacts = `/api/v3/workspaces/${h.ws}/contacts`;
    const ann = await h.create(contacts, { number: '14155550401', name: 'Ann' });
    const bob = await h.create(contacts, { number: '14155550402', name: 'Bob' });
    const file = join(h.dir, 'people.csv');
    writeFileSync(file, 'number,name\n14155550401,Ann\n14155550402,Robert\n14155550403,Cid\n');
    const imported = await cli(['contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ created: 1, updated: 1, unchanged: 1 });

    const shown = await cli(['history', 'show', 'last']);
    expect(shown.code, shown.stderr).toBe(0);
    const plan = shown.stdout.slice(shown.stdout.indexOf('\n~ ') + 1);
    expect(plan).toBe(
      `~ record 2: update contact ${bob.id} (14155550402)\n` +
        '    name: "Bob" -> "Robert"\n' +
        '+ record 3: create 14155550403\n' +
        '    number: "14155550403"\n' +
        '    name: "Cid"\n' +
        '    status: true\n' +
        'Plan: 1 to create, 1 to update, 1 unchanged, 0 invalid.\n',
    );
    expect(shown.stdout).not.toContain(`contact ${ann.id} (`);
  });

  it('a contact whose outcome was not read shows no value emptied', async () => {
    const contacts = `/api/v3/workspaces/${h.ws}/contacts`;
    const dee = await h.create(contacts, { number: '14155550404', name: 'Dee', email: 'dee@example.com' });
    const file = join(h.dir, 'unwaited.csv');
    writeFileSync(file, 'number,name\n14155550404,Deirdre\n');
    const imported = await cli(['contacts', 'import', file, '-q']);
    expect(imported.code, imported.stderr).toBe(0);

    const shown = await cli(['history', 'show', 'last']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("note: the import's outcome was not read");
    expect(shown.stdout.slice(shown.stdout.indexOf('\n~ ') + 1)).toBe(
      `~ record 1: update contact ${dee.id} (14155550404)\nPlan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n`,
    );
  });
});
