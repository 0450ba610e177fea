// wsm diff / apply / pull in-process against an undici MockAgent that refuses any request it was
// not told about: the file checks (nothing sent), confirmation, failures in the middle, and the
// state file of a server that cannot list labels. The same flows run for real in
// test/e2e/workspace-as-code.test.ts.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedPrompter } from './helpers.js';
import {
  BASE_URL,
  JSON_HEADERS,
  WS,
  WSP,
  jsonBodies,
  label,
  meHolds,
  noMe,
  page,
  role,
  setupApi,
  stamp,
  template,
  type Api,
} from './commands/harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const bare = (path: string) => (p: string) => p.split('?')[0] === path;
/** The head of every plan here: the harness logs in through the environment, with no profile saved. */
const HEAD = `Server:    ${BASE_URL} (from WSM_BASE_URL)\nWorkspace: ${WS} (from WSM_WORKSPACE)\nProfile:   (none)\n\n`;

/** GET of a whole list (every page query): answers one page. */
function list(segment: string, records: unknown[]) {
  api.pool.intercept({ path: bare(`${WSP}/${segment}`), method: 'GET' }).reply(200, page(records, 1, 1, 100), JSON_HEADERS);
}
/** A router without the route: 404 with no `status` field (what isRouteMissing reads as "not supported"). */
function missingRoute(path: string, method = 'GET') {
  api.pool.intercept({ path: bare(path), method }).reply(404, { message: 'Not Found' }, JSON_HEADERS);
}
function answer(path: string, method: string, status: number, data: unknown) {
  const { bodies, capture } = jsonBodies();
  api.pool
    .intercept({ path, method })
    .reply((opts) => (capture(opts), { statusCode: status, data: JSON.stringify(data), responseOptions: JSON_HEADERS }));
  return bodies;
}

describe('the file is checked entirely before anything is sent', () => {
  it('lists every problem with its path and line: exit 1 from diff (its 2 means changes planned), 2 from apply', async () => {
    const file = await api.file(
      'ws.yaml',
      [
        'fields: [city, City]',
        'lables: []',
        'labels:',
        '  - { name: urgent, colour: "#ff0000" }',
        '  - { name: urgent, color: "red" }',
        'roles:',
        '  - { id: 3, name: Agent, permissions: [contacts.view, contacts.fly] }',
        'templates:',
        '  - { name: order_update, language: en, category: UTILITY, body: { text: "Order {{1}}" } }',
        '',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await api.run(['diff', '-f', file]);
    expect(code).toBe(1);
    expect((await api.run(['apply', '-f', file, '--yes'])).code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        `error: ${file} is not a valid workspace file: nothing was sent`,
        '  labels.0.colour (line 4): "colour" is not a known field (did you mean "color"?).',
        '  roles.0.id (line 7): "id" is not a known field: ids never appear in the file, items are known by name (templates by name and language).',
        '  lables (line 2): "lables" is not a known field (did you mean "labels"?).',
        '  fields.1 (line 1): The name field must contain only lowercase letters and underscores.',
        '  labels.1.color (line 5): The color field must be a hex colour such as #1a2b3c.',
        '  roles.0.permissions.1 (line 7): The selected permission is invalid.',
        '  templates.0.body.variables (line 9): The variables field must have one example per placeholder (1).',
        '  labels.1.name (line 5): "urgent" is already declared at labels.0.',
        '',
      ].join('\n'),
    );
  });

  it('a YAML syntax error names its line; a missing media file is named too', async () => {
    const broken = await api.file('broken.yaml', 'labels:\n  - name: a\n   color: "#fff"\n');
    const first = await api.run(['apply', '-f', broken, '--yes']);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/^error: .*broken.yaml is neither valid YAML nor valid JSON: nothing was sent\n {2}line 3: /);
    const media = await api.file(
      'media.json',
      JSON.stringify({
        templates: [
          {
            name: 'promo',
            language: 'en',
            category: 'MARKETING',
            header: { type: 'media', media: { type: 'image', file: 'banner.png' } },
            body: { text: 'Sale today' },
          },
        ],
      }),
    );
    const second = await api.run(['apply', '-f', media, '--yes']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('  templates.0.header.media.file (line 1): banner.png cannot be read.');
  });

  it('a misspelt key in a template gets the key it may mean; a key like none gets no guess', async () => {
    const file = await api.file(
      'deep.yaml',
      ['templates:', '  - { name: login_code, language: en, catgory: AUTHENTICATION, codeExpirationMinute: 10, zzz: 1 }', ''].join('\n'),
    );
    const { code, stderr } = await api.run(['apply', '-f', file, '--yes']);
    expect(code).toBe(2);
    expect(stderr).toContain('  templates.0.catgory (line 2): "catgory" is not a known field (did you mean "category"?).\n');
    expect(stderr).toContain(
      '  templates.0.codeExpirationMinute (line 2): "codeExpirationMinute" is not a known field (did you mean "codeExpirationMinutes"?).\n',
    );
    expect(stderr).toContain('  templates.0.zzz (line 2): "zzz" is not a known field.\n');
  });
});

describe('every plan names its target', () => {
  const STAGING = '7d4e2b10-3c5f-4a6b-8c9d-0e1f2a3b4c5d';
  const STP = `/api/v3/workspaces/${STAGING}`;

  it('wsm -w <staging> diff: the head names server, workspace (name and id) and profile; the apply it suggests keeps -w', async () => {
    await api.run(['profile', 'set', 'base-url', BASE_URL, '--profile', 'prod']);
    await api.run(['profile', 'set', 'workspace', WS, '--profile', 'prod']);
    const path = await api.file('ws-stg.yaml', 'labels:\n  - { name: urgent, color: "#00ff00" }\n');
    api.pool.intercept({ path: STP, method: 'GET' }).reply(200, { data: { id: STAGING, name: 'Staging', ...stamp } }, JSON_HEADERS);
    api.pool
      .intercept({ path: bare(`${STP}/labels`), method: 'GET' })
      .reply(200, page([label(4, 'urgent', '#ff0000')], 1, 1, 100), JSON_HEADERS);
    const env = { WSM_BASE_URL: undefined, WSM_WORKSPACE: undefined };
    const { code, stdout, stderr } = await api.run(['-w', STAGING, '--profile', 'prod', 'diff', '-f', path], { env });
    expect(code).toBe(2);
    expect(stdout).toBe(
      `Server:    ${BASE_URL}\nWorkspace: Staging (${STAGING}) (from -w)\nProfile:   prod\n\n` +
        '~ labels urgent color "#ff0000" → "#00ff00"\n\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete.\n',
    );
    // Run as printed, the suggestion applies to staging, not to the profile's own workspace.
    expect(stderr).toBe(
      `1 change planned: the workspace differs from ${path} (\`wsm apply -f ${path} --profile prod -w ${STAGING}\` makes it)\n`,
    );
  });

  it('-o json carries the same target, and apply asks naming it', async () => {
    const path = await api.file('ws.yaml', 'labels:\n  - { name: urgent, color: "#00ff00" }\n');
    for (let i = 0; i < 2; i++) {
      api.pool.intercept({ path: WSP, method: 'GET' }).reply(200, { data: { id: WS, name: 'Production', ...stamp } }, JSON_HEADERS);
      list('labels', [label(4, 'urgent', '#ff0000')]);
    }
    const json = await api.run(['diff', '-f', path, '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      file: path,
      server: BASE_URL,
      workspace: WS,
      workspace_name: 'Production',
      profile: null,
    });
    const prompter = scriptedPrompter({ confirm: [false] });
    noMe(api);
    expect((await api.run(['apply', '-f', path], { stdinTTY: true, prompter })).code).toBe(2);
    expect(prompter.asked).toEqual([`Apply 1 change to workspace Production (${WS}) on ${BASE_URL}?`]);
  });
});

describe('wsm apply', () => {
  const file = () =>
    api.file('ws.yaml', 'labels:\n  - { name: urgent, color: "#00ff00" }\nroles:\n  - { name: Agent, permissions: [contacts.view] }\n');

  it('without a terminal it needs --yes: the plan is shown, nothing is changed (exit 2)', async () => {
    const path = await file();
    list('labels', [label(4, 'urgent', '#ff0000')]);
    list('roles', [role(1, 'Owner'), role(2, 'Agent', ['contacts.view'])]);
    const { code, stdout, stderr } = await api.run(['apply', '-f', path]);
    expect(code).toBe(2);
    expect(stdout).toContain('~ labels urgent color "#ff0000" → "#00ff00"\n');
    expect(stderr).toContain(`error: applying 1 change to workspace ${WS} on ${BASE_URL} needs --yes when not on a terminal\n`);
  });

  it('deleting a label on a server that lists labels: that one list says the extensions are there, no second read', async () => {
    const path = await api.file('labels.yaml', 'labels:\n  - { name: urgent, color: "#ff0000" }\n');
    const asked: string[] = [];
    api.pool
      .intercept({ path: bare(`${WSP}/labels`), method: 'GET' })
      .reply(
        (opts) => (
          asked.push(String(opts.path)),
          {
            statusCode: 200,
            data: JSON.stringify(page([label(4, 'urgent', '#ff0000'), label(5, 'stray')], 1, 1, 100)),
            responseOptions: JSON_HEADERS,
          }
        ),
      )
      .persist();
    const { code, stdout } = await api.run(['diff', '-f', path, '--prune']);
    expect(code).toBe(2);
    expect(stdout).toBe(HEAD + '- labels stray\n\nPlan: 0 to create, 0 to update, 0 to replace, 1 to delete.\n');
    expect(asked).toHaveLength(1);
  });

  it('on a terminal it asks; "no" changes nothing, "yes" applies', async () => {
    const path = await file();
    for (let i = 0; i < 2; i++) {
      list('labels', [label(4, 'urgent', '#ff0000')]);
      list('roles', [role(2, 'Agent', ['contacts.view'])]);
    }
    // Asked on a server that cannot say what the caller may do, and on one saying it may.
    noMe(api);
    const declined = await api.run(['apply', '-f', path], { stdinTTY: true, prompter: scriptedPrompter({ confirm: [false] }) });
    expect(declined.code).toBe(2);
    const updates = answer(`${WSP}/labels/4`, 'PUT', 200, {
      status: 200,
      message: 'Label updated successfully.',
      data: label(4, 'urgent', '#00ff00'),
    });
    meHolds(api, ['labels.view', 'labels.update', 'roles.view', 'roles.update']);
    const accepted = await api.run(['apply', '-f', path], { stdinTTY: true, prompter: scriptedPrompter({ confirm: [true] }) });
    expect(accepted.code).toBe(0);
    expect(updates).toEqual([{ name: 'urgent', color: '#00ff00' }]);
    expect(accepted.stdout).toContain('~ labels urgent: updated\nApply complete: 0 created, 1 updated, 0 replaced, 0 deleted.\n');
  });

  it('--dry-run shows the plan and changes nothing (exit 0)', async () => {
    const path = await file();
    list('labels', []);
    list('roles', []);
    const { code, stdout } = await api.run(['apply', '-f', path, '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      HEAD +
        '+ labels urgent\n\n+ roles Agent\n\nPlan: 2 to create, 0 to update, 0 to replace, 0 to delete.\nDry run: nothing was changed.\n',
    );
  });

  it('refuses a template change it cannot make in place, before changing anything (exit 2)', async () => {
    const path = await api.file(
      't.yaml',
      'labels: [{ name: vip }]\ntemplates:\n  - { name: welcome, language: en, category: UTILITY, body: { text: "Hello {{1}}, welcome!", variables: [Ann] } }\n',
    );
    list('labels', []);
    list('templates', [template(1, { name: 'welcome' })]);
    const { code, stdout, stderr } = await api.run(['apply', '-f', path, '--yes']);
    expect(code).toBe(2);
    expect(stdout).toContain('! templates welcome/en body.text "Hello {{1}}!" → "Hello {{1}}, welcome!"\n');
    expect(stderr).toBe(
      'error: 1 template change cannot be made in place: pass --replace-templates, or restore the content; nothing was changed\n',
    );
  });

  it('a failing item does not stop the others: exit with its code, and a summary of what was not applied', async () => {
    const path = await api.file(
      'ws.yaml',
      'fields: [city]\nlabels:\n  - { name: urgent, color: "#00ff00" }\nroles:\n  - { name: Agent, permissions: [contacts.view] }\n',
    );
    list('contact-fields', []);
    list('labels', [label(4, 'urgent', '#ff0000')]);
    list('roles', [role(9, 'Gone')]);
    answer(`${WSP}/contact-fields`, 'POST', 201, {
      status: 201,
      message: 'Contact field created successfully.',
      data: { id: 1, workspace_id: WS, name: 'city', ...stamp },
    });
    answer(`${WSP}/labels/4`, 'PUT', 422, { message: 'Validation error', errors: { color: ['The color is not allowed here.'] } });
    const roles = answer(`${WSP}/roles`, 'POST', 201, {
      status: 201,
      message: 'Role created successfully.',
      data: role(10, 'Agent', ['contacts.view']),
    });
    api.pool
      .intercept({ path: `${WSP}/roles/9`, method: 'DELETE' })
      .reply(200, { message: 'Role deleted successfully.', status: 200 }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['apply', '-f', path, '--prune', '--yes']);
    expect(code).toBe(5);
    expect(roles).toEqual([{ name: 'Agent', permissions: ['contacts.view'] }]);
    expect(stdout.split('\n\n').at(-1)).toBe(
      [
        '+ fields city: created (id 1)',
        '~ labels urgent: failed: Validation error (422) color: The color is not allowed here.',
        '+ roles Agent: created (id 10)',
        '- roles Gone: deleted',
        '',
      ].join('\n'),
    );
    // The server refused it: running again alone fails the same way, so no "re-run to finish".
    expect(stderr).toBe(
      `error: apply incomplete: 3 of 4 changes made; 1 failed (labels urgent); the server refused what failed: running again changes nothing until it is corrected (in ${path}, a file it names, or on the server)\n`,
    );
  });

  it('re-run finishes only what may pass later (no answer, a 5xx): said apart from what the server refused', async () => {
    const path = await api.file('ws.yaml', 'groups: [VIP]\nlabels:\n  - { name: urgent, color: "#00ff00" }\n');
    list('contact-groups', []);
    list('labels', [label(4, 'urgent', '#ff0000')]);
    answer(`${WSP}/contact-groups`, 'POST', 503, { message: 'The database is busy: try again in a moment.', status: 503 });
    answer(`${WSP}/labels/4`, 'PUT', 403, { message: 'This action is unauthorized.', status: 403 });
    const mixed = await api.run(['apply', '-f', path, '--yes']);
    expect(mixed.stderr).toBe(
      `error: apply incomplete: 0 of 2 changes made; 2 failed (groups VIP, labels urgent); the server refused labels urgent: running again changes nothing until it is corrected (in ${path}, a file it names, or on the server); re-run \`wsm apply -f ${path}\` to finish the rest\n`,
    );
    list('contact-groups', []);
    list('labels', [label(4, 'urgent', '#00ff00')]);
    answer(`${WSP}/contact-groups`, 'POST', 503, { message: 'The database is busy: try again in a moment.', status: 503 });
    const transient = await api.run(['apply', '-f', path, '--yes']);
    expect(transient.code).toBe(6);
    expect(transient.stderr).toBe(
      `error: apply incomplete: 0 of 1 changes made; 1 failed (groups VIP); re-run \`wsm apply -f ${path}\` to finish\n`,
    );
  });

  it('-o json prints the plan and each result as one document', async () => {
    const path = await api.file('ws.yaml', 'groups: [VIP]\n');
    list('contact-groups', []);
    answer(`${WSP}/contact-groups`, 'POST', 503, { message: 'Server error.', status: 503 });
    const { code, stdout } = await api.run(['apply', '-f', path, '--yes', '-o', 'json']);
    expect(code).toBe(6);
    expect(JSON.parse(stdout)).toMatchObject({
      file: path,
      workspace: WS,
      changes: [{ action: 'create', section: 'groups', key: 'VIP', fields: [] }],
      applied: true,
      results: [{ action: 'create', section: 'groups', key: 'VIP', status: 'failed', exit_code: 6, error: expect.stringContaining('503') }],
    });
  });
});

describe('a server without the extensions a change needs', () => {
  const group = (id: number, name: string) => ({ id, workspace_id: WS, name, contacts_count: 0, ...stamp });

  it('diff marks the change (asking with a read, nothing changed); apply refuses the plan: exit 1, no re-run hint', async () => {
    const path = await api.file('ws.yaml', 'groups: [VIP]\n');
    for (let i = 0; i < 2; i++) {
      list('contact-groups', [group(4, 'VIP'), group(5, 'Old')]);
      missingRoute(`${WSP}/contact-groups/5`);
    }
    const diff = await api.run(['diff', '-f', path, '--prune']);
    expect(diff.code).toBe(2);
    expect(diff.stdout).toBe(
      HEAD +
        [
          '- groups Old (not on this server: deleting a contact group)',
          '',
          'Plan: 0 to create, 0 to update, 0 to replace, 1 to delete.',
          `1 change is "not on this server": it lacks operations they need (extensions of wsm serve), so apply refuses the plan. Make that change another way, or take it out of ${path}.`,
          '',
        ].join('\n'),
    );
    // No DELETE is answered: the MockAgent refuses any request it was not told about.
    const apply = await api.run(['apply', '-f', path, '--prune', '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toBe(
      `error: this server does not support deleting a contact group (groups Old): nothing was changed; make these changes another way, or take them out of ${path}\n`,
    );
  });

  it('an operation found missing only while applying fails without a re-run hint', async () => {
    const path = await api.file('ws.yaml', 'roles:\n  - { name: Agent, permissions: [contacts.view] }\n');
    list('roles', []);
    // The server ignores permissions on create, and has no role update to set them with.
    answer(`${WSP}/roles`, 'POST', 201, {
      status: 201,
      message: 'Role created successfully.',
      data: { id: 7, workspace_id: WS, name: 'Agent', ...stamp },
    });
    missingRoute(`${WSP}/roles/7`, 'PUT');
    const { code, stdout, stderr } = await api.run(['apply', '-f', path, '--yes']);
    expect(code).toBe(1);
    expect(stdout).toContain(
      '+ roles Agent: failed: created (id 7), but without its permissions: this server does not support updating a role\n',
    );
    expect(stderr).toBe(
      `error: apply incomplete: 0 of 1 changes made; 1 failed (roles Agent); this server does not support what failed: make it another way, or take it out of ${path}\n`,
    );
  });
});

describe('a server that cannot list labels', () => {
  it('apply records the ids it creates in the state file; diff reads them back by id', async () => {
    const path = await api.file('ws.yaml', 'labels:\n  - { name: urgent, color: "#ff0000" }\n');
    missingRoute(`${WSP}/labels`);
    const created = answer(`${WSP}/labels`, 'POST', 201, {
      status: 201,
      message: 'Label created successfully.',
      data: label(12, 'urgent', '#ff0000'),
    });
    const first = await api.run(['apply', '-f', path, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(created).toEqual([{ name: 'urgent', color: '#ff0000' }]);
    expect(first.stdout).toContain('+ labels urgent (unseen)\n');
    expect(first.stdout).toContain('Note: labels: this server cannot list labels: only the 0 whose ids');
    const state = JSON.parse(await readFile(`${path}.state.json`, 'utf8'));
    expect(state).toEqual({ version: 1, workspaces: { [`${BASE_URL}/workspaces/${WS}`]: { labels: { urgent: 12 } } } });

    missingRoute(`${WSP}/labels`);
    api.pool.intercept({ path: `${WSP}/labels/12`, method: 'GET' }).reply(200, { data: label(12, 'urgent', '#00ff00') }, JSON_HEADERS);
    const diff = await api.run(['diff', '-f', path]);
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain('~ labels urgent color "#00ff00" → "#ff0000"\n');
    expect(diff.stdout).toContain(
      `Note: labels: this server cannot list labels: only the 1 whose ids ${path}.state.json holds can be seen`,
    );
  });

  it('an id whose record is gone is planned as a create and forgotten by apply', async () => {
    const path = await api.file('ws.yaml', 'labels: [{ name: urgent }]\n');
    await api.file(
      'ws.yaml.state.json',
      JSON.stringify({ version: 1, workspaces: { [`${BASE_URL}/workspaces/${WS}`]: { labels: { urgent: 3 } } } }),
    );
    missingRoute(`${WSP}/labels`);
    api.pool
      .intercept({ path: `${WSP}/labels/3`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    answer(`${WSP}/labels`, 'POST', 201, { status: 201, message: 'Label created successfully.', data: label(8, 'urgent') });
    const { code, stdout } = await api.run(['apply', '-f', path, '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Note: labels urgent: id 3 in ${path}.state.json no longer exists.`);
    expect(JSON.parse(await readFile(`${path}.state.json`, 'utf8')).workspaces[`${BASE_URL}/workspaces/${WS}`]).toEqual({
      labels: { urgent: 8 },
    });
  });

  it('-o yaml belongs to pull alone', async () => {
    const other = await api.run(['labels', 'list', '-o', 'yaml']);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe('error: --output takes one of table, json, ndjson, csv, xlsx, got "yaml"\n');
  });

  it('pull -f into a folder that does not exist: one line naming the file (not a temporary one), exit 1', async () => {
    for (const segment of ['contact-fields', 'contact-groups', 'labels', 'roles', 'templates']) list(segment, []);
    const folder = dirname(await api.file('kept.txt', ''));
    const target = join(folder, 'missing', 'ws.yaml');
    const { code, stdout, stderr } = await api.run(['pull', '-f', target]);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot write ${target} (its folder does not exist)\n`,
    });
  });

  it('pull leaves the section out and says why', async () => {
    list('contact-fields', []);
    list('contact-groups', []);
    missingRoute(`${WSP}/labels`);
    list('roles', []);
    missingRoute(`${WSP}/templates`);
    const { code, stdout, stderr } = await api.run(['pull', '-o', 'json']);
    expect(code).toBe(0);
    expect(Object.keys(JSON.parse(stdout))).toEqual(['$schema', 'fields', 'groups', 'roles']);
    expect(stderr).toBe(
      'warning: this server cannot list labels: the section is left out, and a file without it leaves labels alone\n' +
        'warning: this server cannot list templates: the section is left out, and a file without it leaves templates alone\n',
    );
  });
});
