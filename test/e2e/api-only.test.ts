/**
 * `wsm serve --api-only` and the README: every workflow the README shows either works on the
 * published API alone, or ends (exit 1 or 2, nothing else on stderr) in one line that says what it
 * needs. Run in the README's order, in-process (in-process.ts), ids taken from earlier answers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, NOT_SUPPORTED, type Backend } from './backends.js';
import { createTemplateArgs, createUserArgs } from './processes.js';
import { wsmInProcess } from './in-process.js';

let backend: Backend;
const run = (args: string[], input?: string) => wsmInProcess(backend.env, args, input);
beforeAll(async () => {
  backend = await BACKENDS.find((b) => b.name === 'wsm serve --api-only')!.start();
});
afterAll(async () => {
  if (backend) expect(await backend.stop()).toBe(0);
});

async function works(args: string[], input?: string): Promise<string> {
  const res = await run(args, input);
  expect(res.code, `wsm ${args.join(' ')}: ${res.stderr}`).toBe(0);
  expect(res.stderr, `wsm ${args.join(' ')}`).not.toMatch(/^error:/m);
  return res.stdout;
}

async function saysItNeedsTheExtension(args: string[], pattern = NOT_SUPPORTED): Promise<void> {
  const res = await run(args);
  expect([1, 2], `wsm ${args.join(' ')}: ${res.stderr}`).toContain(res.code);
  expect(res.stderr, `wsm ${args.join(' ')}`).toMatch(pattern);
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
}

describe('README workflows against wsm serve --api-only', () => {
  it('extension endpoints answer 404 without status, as a router without them', async () => {
    const { workspace, token } = backend;
    for (const [method, path] of [
      ['GET', '/me'],
      ['GET', `/workspaces/${workspace}/templates`],
      ['DELETE', `/workspaces/${workspace}/labels/1`],
    ]) {
      const res = await fetch(`${backend.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ message: `The route ${new URL(backend.url + path).pathname.slice(1)} could not be found.` });
    }
  });

  it('contacts', async () => {
    const group = JSON.parse(await works(['groups', 'create', 'Newsletter', '-o', 'json'])).id;
    await works(['fields', 'create', 'city']);
    const contact = (
      await works([
        'contacts',
        'create',
        '--number',
        '+1 415 555 0100',
        '--name',
        'Ann',
        '--email',
        'ann@example.com',
        '--group',
        String(group),
        '--field',
        'city=Lisbon',
        '-q',
      ])
    ).trim();
    await works(['contacts', 'list', '--search', 'ann', '--per-page', '50']);
    await works(['contacts', 'list', '--all', '-o', 'ndjson']);
    await saysItNeedsTheExtension(['contacts', 'get', contact]);
    await works(['contacts', 'update', contact, '--name', 'Ann Lee', '--inactive']);
    // Without --name wsm would read the contact first (an extension): exit 1 like every one of them.
    const unnamed = await run(['contacts', 'update', contact, '--inactive']);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toBe(
      'error: this server does not support getting one contact: wsm cannot keep what the contact holds, so pass --name (the API requires the name on every update)\n',
    );
    await works(['contacts', 'delete', contact, '--yes']);
    const file = join(backend.dir, 'people.csv');
    writeFileSync(file, 'number,name\n14155550101,Bea\n');
    await works(['contacts', 'import', file, '--name', 'June list', '--group', String(group), '--wait', '--interval', '0.2s']);
    await works(['contacts', 'import', file, '--dry-run']);
    expect(await works(['contacts', 'export'])).toContain('14155550101');
  });

  it("a value for a custom field the workspace lacks: the server's field error names the flag typed", async () => {
    const unknownField = await run(['contacts', 'create', '--number', '14155550109', '--name', 'Cy', '--field', 'country=PT']);
    expect({ code: unknownField.code, stderr: unknownField.stderr }).toEqual({
      code: 5,
      stderr: 'error: the server rejected the contact:\n  --field country: The country field is not a contact field of this workspace.\n',
    });
  });

  it('groups, fields, imports, labels, roles', async () => {
    const group = (await works(['groups', 'create', 'VIP buyers', '-q'])).trim();
    await works(['groups', 'list']);
    await saysItNeedsTheExtension(['groups', 'get', group]);
    await saysItNeedsTheExtension(['groups', 'update', group, '--name', 'News']);
    await saysItNeedsTheExtension(['groups', 'delete', group, '--yes']);
    const field = (await works(['fields', 'create', 'plan_tier', '-q'])).trim();
    await works(['fields', 'list']);
    await works(['fields', 'delete', field, '--yes']);
    const file = join(backend.dir, 'june.csv');
    writeFileSync(file, 'number\n14155550102\n');
    const upload = (await works(['imports', 'create', file, '--name', 'June', '-q'])).trim();
    await works(['imports', 'list']);
    await works(['imports', 'get', upload]); // found in the import list
    await works(['imports', 'delete', upload, '--yes']);
    const label = (await works(['labels', 'create', 'Urgent', '--color', '#ff0000', '-q'])).trim();
    await saysItNeedsTheExtension(['labels', 'list']);
    await works(['labels', 'get', label]);
    await works(['labels', 'update', label, '--color', '#00ff00']);
    await saysItNeedsTheExtension(['labels', 'delete', label, '--yes']);
    const role = (await works(['roles', 'create', 'Agent', '-q'])).trim();
    await works(['roles', 'list']);
    await saysItNeedsTheExtension(['roles', 'get', role]);
    await saysItNeedsTheExtension(['roles', 'update', role, '--name', 'Support', '--permission', 'contacts.view']);
    await saysItNeedsTheExtension(['roles', 'delete', role, '--yes']);
  });

  it('users, permissions, workspace', async () => {
    const users = JSON.parse(await works(['users', 'list', '-o', 'json']));
    await saysItNeedsTheExtension(createUserArgs('1'));
    await works(['users', 'update', String(users[0].id), '--timezone', 'Europe/Lisbon']);
    await works(['permissions', 'list']);
    await works(['permissions', 'set', 'contacts.view', 'contacts.create', 'labels.view']);
    await works(['permissions', 'set', '--file', '-'], await works(['permissions', 'list', '-q']));
    await works(['workspace', 'get']);
    await saysItNeedsTheExtension(['workspace', 'create', 'Second brand']);
  });

  it('templates, for CI', async () => {
    const file = join(backend.dir, 'welcome.yaml');
    writeFileSync(file, 'name: welcome_note\nlanguage: en\ncategory: UTILITY\nbody:\n  text: Welcome aboard, {{1}}!\n  variables: [Ann]\n');
    await works(['templates', 'validate', file]);
    const welcome = (await works(['templates', 'create', '--file', file, '-q'])).trim();
    await works([...createTemplateArgs('order_update'), '--button', 'QUICK_REPLY:Track']);
    await saysItNeedsTheExtension(['templates', 'list', '-o', 'json']);
    await works(['templates', 'get', welcome]);
    // --fail-on-rejected cannot find the pending templates by itself here: it says how to name them.
    await saysItNeedsTheExtension(
      ['templates', 'sync', '--wait', '--fail-on-rejected'],
      /^error: this server cannot list templates.*--template <id>/,
    );
    await works(['templates', 'sync', '--wait', '--timeout', '30m', '--fail-on-rejected', '--template', welcome]);
    await works(['templates', 'sync']);
    await works(['templates', 'delete', welcome, '--yes']);
    await works(['api', 'GET', '/workspaces/{workspace}/contacts', '-f', 'per_page=5']);
  });

  it('auth', async () => {
    await works(['auth', 'status']);
  });
});
