/**
 * Workspace as code end to end: wsm run in-process (the commands are the point, see in-process.ts)
 * against a real `wsm serve`, each test in a workspace of its own; the CI recipe runs the real
 * binary in a real shell. The last test puts a small proxy in front of the server that answers the
 * extension routes (decisions.md §6) as a router without them would (404, no `status`), as the
 * published API would: no list of labels or templates, so apply keeps a state file.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { BIN, cleanup } from './processes.js';
import { forward } from './forward.js';

let server: Backend;
let proxy: Server | undefined;

beforeAll(async () => {
  server = await serveBackend();
});
afterAll(async () => {
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

/** Runs a command line in a real `sh` with the server's environment; resolves to its exit code. */
function shell(line: string): Promise<number | null> {
  return new Promise((resolve) => spawn('sh', ['-c', line], { env: server.env, stdio: 'ignore' }).on('close', resolve));
}

/** A workspace of the test's own, and `wsm` bound to it. */
async function workspace(name: string) {
  const made = await wsmInProcess(server.env, ['workspace', 'create', name, '-o', 'json']);
  expect(made.code, made.stderr).toBe(0);
  const id = JSON.parse(made.stdout).id as string;
  const file = (base: string) => join(server.dir, `${name}-${base}`);
  // Every plan is headed by what it is against: the server and profile `wsm serve` saved, this workspace from -w.
  const head = `Server:    ${server.url}\nWorkspace: ${name} (${id}) (from -w)\nProfile:   local\n\n`;
  return { id, file, head, run: (...args: string[]) => wsmInProcess(server.env, ['-w', id, ...args]) };
}

/** A workspace with BASE applied, and the path of its file. */
async function seeded(name: string) {
  const ws = await workspace(name);
  const path = ws.file('ws.yaml');
  writeFileSync(path, BASE);
  const applied = await ws.run('apply', '-f', path, '--yes');
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stdout).toContain('Apply complete: 7 created, 0 updated, 0 replaced, 0 deleted.');
  return { ws, path };
}

const BASE = [
  'fields: [city, plan_tier]',
  'groups: [Newsletter, VIP]',
  'labels:',
  '  - { name: urgent, color: "#ff0000" }',
  'roles:',
  '  - { name: Agent, permissions: [contacts.view, contacts.update] }',
  'templates:',
  '  - { name: order_update, language: en, category: UTILITY,',
  '      body: { text: "Your order {{1}} is on its way.", variables: ["A-1"] } }',
  '',
].join('\n');

/** A 1x1 PNG: the server checks a media header by its bytes. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4c60000000049454e44ae426082',
  'hex',
);

describe('wsm pull, diff and apply against wsm serve', () => {
  it('pull -> diff finds no change; a colour edit is planned, applied, and then gone from the plan', async () => {
    const { ws } = await seeded('colour');

    const pulledPath = ws.file('pulled.yaml');
    expect((await ws.run('pull', '-f', pulledPath)).code).toBe(0);
    const pulled = readFileSync(pulledPath, 'utf8');
    // Written outside the project wsm is installed in: no $schema, never a path of this machine.
    expect(pulled).toMatch(/^fields:\n/);
    expect(pulled).not.toContain('schema');
    expect(pulled).not.toContain(resolve(import.meta.dirname, '../..'));
    expect(pulled).not.toContain('Owner');
    const same = await ws.run('diff', '-f', pulledPath);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe(`${ws.head}No changes: the workspace matches ${pulledPath}.\n`);
    // On stdout the schema is named from the working directory (here the project, so it is named), in the file from the file's own.
    const body = (text: string) => text.replace(/^# yaml-language-server: \$schema=\.\/dist\/workspace-file\.schema\.json\n+/, '');
    expect(body((await ws.run('pull', '-o', 'yaml')).stdout)).toBe(body(pulled));
    const json = await ws.run('pull', '-o', 'json');
    expect(JSON.parse(json.stdout).labels).toEqual([{ name: 'urgent', color: '#ff0000' }]);

    writeFileSync(pulledPath, pulled.replace('"#ff0000"', '"#00ff00"'));
    const planned = await ws.run('diff', '-f', pulledPath);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toBe(
      ws.head + '~ labels urgent color "#ff0000" → "#00ff00"\n\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete.\n',
    );
    // Changes planned is a result, not a failure: no `error:` prefix (Terraform's -detailed-exitcode).
    // Run as printed, the suggestion acts on this workspace: it keeps the -w given.
    expect(planned.stderr).toBe(
      `1 change planned: the workspace differs from ${pulledPath} (\`wsm apply -f ${pulledPath} -w ${ws.id}\` makes it)\n`,
    );
    const asData = await ws.run('diff', '-f', pulledPath, '-o', 'json');
    expect(asData.code).toBe(2);
    expect(JSON.parse(asData.stdout).changes).toEqual([
      {
        action: 'update',
        section: 'labels',
        key: 'urgent',
        id: expect.any(Number),
        fields: [{ field: 'color', old: '#ff0000', new: '#00ff00' }],
      },
    ]);

    const update = await ws.run('apply', '-f', pulledPath, '--yes');
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('~ labels urgent: updated\nApply complete: 0 created, 1 updated, 0 replaced, 0 deleted.\n');
    expect((await ws.run('diff', '-f', pulledPath)).code).toBe(0);
    expect((await ws.run('apply', '-f', pulledPath, '--yes')).stdout).toBe(`${ws.head}No changes: the workspace matches ${pulledPath}.\n`);
    const labels = JSON.parse((await ws.run('labels', 'list', '-o', 'json')).stdout);
    expect(labels).toMatchObject([{ name: 'urgent', color: '#00ff00' }]);
  });

  it('prune deletes what the file does not list, never the Owner role', async () => {
    const { ws, path } = await seeded('prune');
    expect((await ws.run('labels', 'create', 'stray')).code).toBe(0);
    expect((await ws.run('groups', 'create', 'Old')).code).toBe(0);

    const kept = await ws.run('diff', '-f', path);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain(`Not in ${path}, kept (--prune deletes them): groups Old, labels stray.`);
    const planned = await ws.run('diff', '-f', path, '--prune');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toBe(ws.head + '- groups Old\n\n- labels stray\n\nPlan: 0 to create, 0 to update, 0 to replace, 2 to delete.\n');
    const pruned = await ws.run('apply', '-f', path, '--prune', '--yes');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('- labels stray: deleted\n- groups Old: deleted\n');
    expect((await ws.run('diff', '-f', path, '--prune')).code).toBe(0);
    const roles = JSON.parse((await ws.run('roles', 'list', '-o', 'json')).stdout).map((r: { name: string }) => r.name);
    expect(roles.sort()).toEqual(['Agent', 'Owner']);
  });

  it('the built-in Owner role: a rename is refused naming why; pull leaves it out, prune never plans it, an entry naming it is never applied', async () => {
    const { ws, path } = await seeded('builtin');
    const owner = JSON.parse((await ws.run('roles', 'list', '-o', 'json')).stdout).find((role: { builtin?: boolean }) => role.builtin);
    expect(owner).toMatchObject({ name: 'Owner', builtin: true });
    const renamed = await ws.run('roles', 'update', String(owner.id), '--name', 'Boss');
    expect(renamed.code).toBe(5);
    expect(renamed.stderr).toContain('The Owner role is built in: it cannot be renamed.');
    const removed = await ws.run('roles', 'delete', String(owner.id), '--yes');
    expect(removed.code).toBe(5);
    expect(removed.stderr).toContain('The Owner role is built in: it cannot be deleted.');
    expect((await ws.run('pull')).stdout).not.toContain('Owner');

    // A file that names it (written by hand, or by an older pull) with other permissions.
    writeFileSync(path, BASE.replace('roles:\n', 'roles:\n  - { name: Owner, permissions: [contacts.view] }\n'));
    const planned = await ws.run('diff', '-f', path, '--prune');
    expect(planned.code, planned.stdout).toBe(0);
    expect(planned.stdout).toContain('roles Owner: built in on the server, which never changes it: its entry in the file is not applied');
    const applied = await ws.run('apply', '-f', path, '--prune', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain('re-run');
    expect(JSON.parse((await ws.run('roles', 'get', String(owner.id), '-o', 'json')).stdout)).toMatchObject({
      name: 'Owner',
      builtin: true,
    });
  });

  it('the CI recipe `wsm diff -f FILE || [ $? -eq 2 ]` fails on a broken or missing file: diff exits 1 there, 2 only for changes', async () => {
    const { ws, path } = await seeded('ci-gate');
    const misspelt = ws.file('misspelt.yaml');
    writeFileSync(misspelt, BASE.replace('fields:', 'feilds:'));
    const syntax = ws.file('syntax.yaml');
    writeFileSync(syntax, 'labels:\n  - name: a\n   color: "#fff"\n');
    const missing = ws.file('missing.yaml');
    const changed = ws.file('changed.yaml');
    writeFileSync(changed, BASE.replace('"#ff0000"', '"#00ff00"'));

    const badKey = await ws.run('diff', '-f', misspelt);
    expect(badKey).toMatchObject({ code: 1, stdout: '' });
    expect(badKey.stderr).toContain(
      `error: ${misspelt} is not a valid workspace file: nothing was sent\n  feilds (line 1): "feilds" is not a known field (did you mean "fields"?).\n`,
    );
    const badYaml = await ws.run('diff', '-f', syntax);
    expect(badYaml).toMatchObject({ code: 1, stdout: '' });
    expect(badYaml.stderr).toMatch(/^error: .*syntax.yaml is neither valid YAML nor valid JSON: nothing was sent\n {2}line 3: /);
    const absent = await ws.run('diff', '-f', missing);
    expect(absent).toMatchObject({ code: 1, stdout: '' });
    expect(absent.stderr).toMatch(/^error: cannot read .*missing.yaml/);
    // Commander's own usage errors too: no -f, an unknown flag, a bad global flag.
    for (const args of [['diff'], ['diff', '-f', path, '--prnue'], ['diff', '-f', path, '-o', 'yaml']]) {
      const usage = await ws.run(...args);
      expect(usage.code, args.join(' ')).toBe(1);
      expect(usage.stderr, args.join(' ')).toMatch(/^error: /);
    }
    // -o json still reports the failure as JSON, with the code the process exits with.
    const asJson = await ws.run('diff', '-f', missing, '-o', 'json');
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout).error.exit_code).toBe(1);
    // apply keeps 2 for the same broken file (its 2 means nothing was changed).
    expect((await ws.run('apply', '-f', misspelt, '--yes')).code).toBe(2);

    // The recipe itself, through a real shell: red for the broken files, green for none and for changes.
    const recipe = (file: string) => shell(`"${process.execPath}" "${BIN}" -w ${ws.id} diff -f "${file}" >/dev/null 2>&1 || [ $? -eq 2 ]`);
    const [red, green] = await Promise.all([
      Promise.all([misspelt, syntax, missing].map(recipe)),
      Promise.all([path, changed].map(recipe)),
    ]);
    for (const code of red) expect(code).not.toBe(0);
    expect(green).toEqual([0, 0]);
  });

  it('a template whose content changed: ! and nothing changed, then delete + create with --replace-templates', async () => {
    const { ws, path } = await seeded('templates');
    const before = JSON.parse((await ws.run('templates', 'list', '-o', 'json')).stdout);

    writeFileSync(path, BASE.replace('is on its way.', 'has shipped.'));
    const line = '! templates order_update/en body.text "Your order {{1}} is on its way." → "Your order {{1}} has shipped."\n';
    const planned = await ws.run('diff', '-f', path);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain(line);
    const refused = await ws.run('apply', '-f', path, '--yes');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --replace-templates');
    expect(JSON.parse((await ws.run('templates', 'list', '-o', 'json')).stdout)).toEqual(before);

    const replacing = await ws.run('diff', '-f', path, '--replace-templates');
    expect(replacing.stdout).toContain(line.replace('!', '-/+'));
    expect(replacing.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to delete.');
    const replaced = await ws.run('apply', '-f', path, '--replace-templates', '--yes');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/-\/\+ templates order_update\/en: replaced \(id \d+\)\n/);
    const after = JSON.parse((await ws.run('templates', 'list', '-o', 'json')).stdout);
    expect(after).toMatchObject([
      { name: 'order_update', language: 'en', components: { body: { text: 'Your order {{1}} has shipped.' } } },
    ]);
    expect((await ws.run('diff', '-f', path)).code).toBe(0);
  });

  it('a failing item in the middle: the others are applied, exit with its code, a summary; once corrected, a re-run finishes', async () => {
    const { ws, path } = await seeded('failure');
    // The server reads a media header by its bytes: this "PNG" passes the local checks and is refused there.
    writeFileSync(join(server.dir, 'banner.png'), 'not an image at all');
    const media =
      '  - { name: banner_promo, language: en, category: MARKETING, header: { type: media, media: { type: image, file: banner.png } }, body: { text: "Sale on {{1}} only", variables: [Monday] } }\n';
    const later = '  - { name: welcome, language: en, category: UTILITY, body: { text: "Welcome to the shop." } }\n';
    writeFileSync(path, BASE.replace('"#ff0000" }', '"#00ff00" }') + media + later);

    const failed = await ws.run('apply', '-f', path, '--yes');
    expect(failed.code).toBe(5);
    expect(failed.stdout.split('\n\n').at(-1)).toMatch(
      /^~ labels urgent: updated\n\+ templates banner_promo\/en: failed: .*\(422\) header\.media\.file: The header media file must be a file of type: jpeg, png\.\n\+ templates welcome\/en: created \(id \d+\)\n$/,
    );
    expect(failed.stderr).toBe(
      `error: apply incomplete: 2 of 3 changes made; 1 failed (templates banner_promo/en); the server refused what failed: running again changes nothing until it is corrected (in ${path}, a file it names, or on the server)\n`,
    );
    const left = await ws.run('diff', '-f', path);
    expect(left.code).toBe(2);
    expect(left.stdout).toBe(ws.head + '+ templates banner_promo/en\n\nPlan: 1 to create, 0 to update, 0 to replace, 0 to delete.\n');

    writeFileSync(join(server.dir, 'banner.png'), PNG);
    const rerun = await ws.run('apply', '-f', path, '--yes');
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(
      /\+ templates banner_promo\/en: created \(id \d+\)\nApply complete: 1 created, 0 updated, 0 replaced, 0 deleted\.\n$/,
    );
    expect((await ws.run('diff', '-f', path)).code).toBe(0);
  });
});

/** Forwards to wsm serve, except the extension routes, which answer 404 without `status`. */
async function publishedApiOnly(target: string): Promise<string> {
  const upstream = new URL(target);
  const extension = (method: string, path: string) => {
    const tail = path.split('?')[0].replace(/^\/api\/v3\/workspaces\/[^/]+/, '');
    if (method === 'GET' && (tail === '/labels' || tail === '/templates')) return true;
    if (method === 'DELETE' && /^\/labels\/\d+$/.test(tail)) return true;
    if (/^\/(contact-groups|roles)\/\d+$/.test(tail)) return true;
    return /^\/contact-fields\/\d+$/.test(tail) && method !== 'DELETE';
  };
  proxy = createServer((req, res) => {
    if (extension(req.method!, req.url!)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
      return;
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy!.address() as AddressInfo).port}/api/v3`;
}

describe('against a server with only the published API', () => {
  it('apply keeps a state file of the labels and templates it created; diff reads them back by id', async () => {
    const ws = await workspace('nolist');
    const baseUrl = await publishedApiOnly(server.url);
    const run = (...args: string[]) => ws.run('--base-url', baseUrl, ...args);
    const path = ws.file('ws.yaml');
    const state = `${path}.state.json`;
    writeFileSync(path, BASE);

    const first = await run('apply', '-f', path, '--yes');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('+ labels urgent (unseen)\n');
    expect(first.stdout).toContain(`Note: labels: this server cannot list labels: only the 0 whose ids ${state} holds can be seen`);
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(Object.keys(saved.workspaces)).toEqual([`${baseUrl}/workspaces/${ws.id}`]);
    expect(saved.workspaces[`${baseUrl}/workspaces/${ws.id}`]).toEqual({
      labels: { urgent: expect.any(Number) },
      templates: { 'order_update/en': expect.any(Number) },
    });

    const same = await run('diff', '-f', path);
    expect(same.code, same.stdout).toBe(0);
    expect(same.stdout).toContain(`No changes: the workspace matches ${path}.\n`);
    expect(same.stdout).toContain(`Note: templates: this server cannot list templates: only the 1 whose ids ${state} holds can be seen`);

    writeFileSync(path, BASE.replace('"#ff0000"', '"#00ff00"'));
    const planned = await run('diff', '-f', path);
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('~ labels urgent color "#ff0000" → "#00ff00"\n');
    expect((await run('apply', '-f', path, '--yes')).code).toBe(0);
    expect((await run('diff', '-f', path)).code).toBe(0);

    // Without the state file nothing of those sections can be seen, and the plan says so.
    const blind = await run('diff', '-f', path, '--state', ws.file('other.json'));
    expect(blind.code).toBe(2);
    expect(blind.stdout).toContain('+ labels urgent (unseen)\n');
    expect(blind.stdout).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete.');

    // Updating a role's permissions is an extension: diff marks it, apply refuses the plan before
    // changing anything (exit 1), and never suggests a re-run that could not succeed.
    writeFileSync(path, BASE.replace('"#ff0000"', '"#0000ff"').replace('contacts.update]', 'contacts.delete]'));
    const marked = await run('diff', '-f', path);
    expect(marked.code).toBe(2);
    expect(marked.stdout).toContain('~ labels urgent color "#00ff00" → "#0000ff"\n');
    expect(marked.stdout).toContain('~ roles Agent permissions +contacts.delete -contacts.update (not on this server: updating a role)\n');
    expect(marked.stdout).toContain(
      `1 change is "not on this server": it lacks operations they need (extensions of wsm serve), so apply refuses the plan. Make that change another way, or take it out of ${path}.\n`,
    );
    const markedJson = JSON.parse((await run('diff', '-f', path, '-o', 'json')).stdout);
    expect(markedJson.changes.find((c: { section: string }) => c.section === 'roles')).toMatchObject({
      action: 'update',
      key: 'Agent',
      unsupported: ['updating a role'],
    });
    expect((await run('apply', '-f', path, '--dry-run')).code).toBe(0);
    const refused = await run('apply', '-f', path, '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: this server does not support updating a role (roles Agent): nothing was changed; make these changes another way, or take them out of ${path}\n`,
    );
    expect(refused.stdout).not.toContain(': updated');
    const labelId = JSON.parse(readFileSync(state, 'utf8')).workspaces[`${baseUrl}/workspaces/${ws.id}`].labels.urgent;
    expect((await run('labels', 'get', String(labelId), '--jq', '.color')).stdout).toBe('#00ff00\n');
    const pull = await run('pull');
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain('warning: this server cannot list labels');
    expect(pull.stdout).not.toContain('labels:');
  });
});
