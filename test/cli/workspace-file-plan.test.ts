// The plan as a pure function: what the server holds + what the file declares -> changes, and
// how they read. No I/O here; the commands around it are tested in workspace-file.test.ts and e2e.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { exitCodeFor } from '../../src/cli/errors.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { template as storedTemplate } from './commands/harness.js';
import { workspaceFile, workspaceFileJsonSchema, type WorkspaceFileInput } from '../../src/api/schemas/index.js';
import { executionOrder, makePlan, type Observation, type PlanOptions } from '../../src/commands/workspace-file/plan.js';
import { pulledFile, renderPulled, schemaReference } from '../../src/commands/workspace-file/pull.js';
import { planData, planText } from '../../src/commands/workspace-file/render.js';
import { SECTIONS } from '../../src/commands/workspace-file/sections.js';
import { openState } from '../../src/commands/workspace-file/state.js';

const WS = '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f';
const stamp = { workspace_id: WS, created_at: '2025-03-01T10:00:00.000Z', updated_at: '2025-03-01T10:00:00.000Z' };
const label = (id: number, name: string, color: string | null = null) => ({ id, name, color, ...stamp });
const role = (id: number, name: string, permissions: string[]) => ({ id, name, permissions, ...stamp });
const named = (id: number, name: string) => ({ id, name, ...stamp });
const template = (id: number, overrides: Record<string, unknown> = {}) =>
  storedTemplate(id, {
    name: 'order_update',
    components: { header: null, body: { text: 'Your order {{1}} is on its way.', variables: ['A-1'] }, footer: null, buttons: [] },
    ...overrides,
  });

/** What the server holds, as observe() would give it after full lists. */
function server(records: Partial<Record<keyof typeof SECTIONS, unknown[]>>, complete = true): Observation {
  const observation: Observation = {};
  for (const [section, list] of Object.entries(records) as Array<[keyof typeof SECTIONS, unknown[]]>) {
    observation[section] = {
      items: list.map((r) => SECTIONS[section].observe(r)),
      complete,
      notes: complete ? [] : [`${section}: cannot list`],
    };
  }
  return observation;
}

const parse = (input: WorkspaceFileInput) => workspaceFile.parse(input);
const plan = (file: WorkspaceFileInput, observation: Observation, options: Partial<PlanOptions> = {}) =>
  makePlan(parse(file), observation, { prune: false, replaceTemplates: false, ...options });

describe('plan', () => {
  it('a changed colour is one in-place update, rendered as the issue writes it', () => {
    const result = plan({ labels: [{ name: 'urgent', color: '#00ff00' }] }, server({ labels: [label(4, 'urgent', '#ff0000')] }));
    expect(result.changes).toEqual([
      {
        action: 'update',
        section: 'labels',
        key: 'urgent',
        id: 4,
        fields: [{ field: 'color', old: '#ff0000', new: '#00ff00' }],
        entry: { name: 'urgent', color: '#00ff00' },
      },
    ]);
    expect(planText(result, 'ws.yaml', false)).toBe(
      '~ labels urgent color "#ff0000" → "#00ff00"\n\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete.\n',
    );
    // Headed by what it was made against, each setting saying where it came from unless the profile.
    const target = {
      server: 'http://127.0.0.1:8080/api/v3',
      serverFrom: 'profile' as const,
      workspace: WS,
      workspaceName: 'Staging',
      workspaceFrom: 'flag' as const,
      profile: 'local',
    };
    expect(planText(result, 'ws.yaml', false, target)).toBe(
      `Server:    http://127.0.0.1:8080/api/v3\nWorkspace: Staging (${WS}) (from -w)\nProfile:   local\n\n` +
        '~ labels urgent color "#ff0000" → "#00ff00"\n\nPlan: 0 to create, 1 to update, 0 to replace, 0 to delete.\n',
    );
    expect(
      planText(result, 'ws.yaml', false, { ...target, workspaceName: undefined, serverFrom: 'env', workspaceFrom: 'profile' }),
    ).toMatch(
      new RegExp(`^Server:    http://127.0.0.1:8080/api/v3 \\(from WSM_BASE_URL\\)\nWorkspace: ${WS}\nProfile:   local\n\n~ labels`),
    );
  });

  it('a label without a colour in the file means no colour (null), as on create', () => {
    const result = plan({ labels: [{ name: 'urgent' }] }, server({ labels: [label(4, 'urgent', '#ff0000')] }));
    expect(result.changes[0].fields).toEqual([{ field: 'color', old: '#ff0000', new: null }]);
  });

  it('compares role permissions as sets: order and repeats do not matter', () => {
    const current = server({ roles: [role(2, 'Agent', ['contacts.update', 'contacts.view'])] });
    expect(
      plan({ roles: [{ name: 'Agent', permissions: ['contacts.view', 'contacts.update', 'contacts.view'] }] }, current).changes,
    ).toEqual([]);
    const changed = plan({ roles: [{ name: 'Agent', permissions: ['contacts.view', 'contacts.delete'] }] }, current);
    expect(changed.changes[0]).toMatchObject({
      action: 'update',
      fields: [{ field: 'permissions', added: ['contacts.delete'], removed: ['contacts.update'] }],
    });
    expect(planText(changed, 'f', false)).toContain('~ roles Agent permissions +contacts.delete -contacts.update\n');
  });

  it('creates what is missing and, only with --prune, deletes what the file does not list', () => {
    const current = server({ groups: [named(1, 'VIP'), named(2, 'Old')], fields: [named(1, 'city')] });
    const file = { groups: ['VIP', 'New'], fields: ['city'] };
    const kept = plan(file, current);
    expect(kept.changes.map((c) => [c.action, c.section, c.key])).toEqual([['create', 'groups', 'New']]);
    expect(kept.unmanaged).toEqual([{ section: 'groups', key: 'Old', id: 2 }]);
    expect(planText(kept, 'ws.yaml', false)).toContain('Not in ws.yaml, kept (--prune deletes them): groups Old.');
    const pruned = plan(file, current, { prune: true });
    expect(pruned.changes.map((c) => [c.action, c.key])).toEqual([
      ['create', 'New'],
      ['delete', 'Old'],
    ]);
    expect(pruned.unmanaged).toEqual([]);
  });

  it('a section left out of the file is not managed, even with --prune; an empty one is', () => {
    const current = server({ labels: [label(1, 'a')] });
    expect(plan({}, current, { prune: true }).changes).toEqual([]);
    expect(plan({ labels: [] }, current, { prune: true }).changes).toMatchObject([
      { action: 'delete', section: 'labels', key: 'a', id: 1 },
    ]);
  });

  it('never lists nor prunes the built-in Owner role', () => {
    const current = server({ roles: [role(1, 'Owner', ['contacts.view']), role(2, 'Agent', [])] });
    const result = plan({ roles: [] }, current, { prune: true });
    expect(result.changes.map((c) => c.key)).toEqual(['Agent']);
    expect(pulledFile(current).roles).toEqual([{ name: 'Agent', permissions: [] }]);
  });

  it('a role the server marks built in is left out whatever its name; one it marks not built in is managed even named Owner', () => {
    // A server from before the Owner role could not be renamed: the owner's role called Boss, and a new role called Owner.
    const current = server({
      roles: [
        { ...role(1, 'Boss', ['contacts.view']), builtin: true },
        { ...role(2, 'Owner', []), builtin: false },
      ],
    });
    expect(pulledFile(current).roles).toEqual([{ name: 'Owner', permissions: [] }]);
    const pruned = plan({ roles: [] }, current, { prune: true });
    expect(pruned.changes.map((c) => [c.action, c.key])).toEqual([['delete', 'Owner']]);
    expect(pruned.unmanaged).toEqual([]);
    expect(plan({ roles: [] }, current).unmanaged).toEqual([{ section: 'roles', key: 'Owner', id: 2 }]);
  });

  it('an entry naming a built-in role is never planned (no run could make it): the plan notes it when it differs', () => {
    const current = server({ roles: [{ ...role(1, 'Boss', ['contacts.view']), builtin: true }] });
    const differs = plan({ roles: [{ name: 'Boss', permissions: ['contacts.view', 'contacts.delete'] }] }, current, { prune: true });
    expect(differs.changes).toEqual([]);
    expect(differs.notes).toEqual(['roles Boss: built in on the server, which never changes it: its entry in the file is not applied']);
    expect(planText(differs, 'ws.yaml', false)).toContain(
      'roles Boss: built in on the server, which never changes it: its entry in the file is not applied',
    );
    expect(plan({ roles: [{ name: 'Boss', permissions: ['contacts.view'] }] }, current).notes).toEqual([]);
  });

  it('a template whose content changed cannot be updated: ! without --replace-templates, -/+ with it', () => {
    const current = server({ templates: [template(7)] });
    const file = {
      templates: [
        {
          name: 'order_update',
          language: 'en',
          category: 'UTILITY' as const,
          body: { text: 'Your order {{1}} has shipped.', variables: ['A-1'] },
        },
      ],
    };
    const blocked = plan(file, current);
    expect(blocked.changes).toMatchObject([{ action: 'blocked', key: 'order_update/en', id: 7 }]);
    expect(blocked.counts.blocked).toBe(1);
    const text = planText(blocked, 'ws.yaml', false);
    expect(text).toContain('! templates order_update/en body.text "Your order {{1}} is on its way." → "Your order {{1}} has shipped."\n');
    expect(text).toContain('Pass --replace-templates');
    expect(text).toContain('Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 1 blocked.');
    const replaced = plan(file, current, { replaceTemplates: true });
    expect(replaced.changes).toMatchObject([{ action: 'replace', id: 7 }]);
    expect(planText(replaced, 'ws.yaml', false)).toContain('-/+ templates order_update/en body.text');
  });

  it('a template as the server returns it equals its create shape (nulls, empty lists, false flags)', () => {
    const stored = template(3, {
      category: 'MARKETING',
      components: {
        header: { type: 'media', media: { type: 'image', handle: 'h-123' } },
        body: { text: 'Sale {{1}} today', variables: ['A'] },
        footer: null,
        buttons: [],
      },
      options: { unsubscribeButton: true, blockButton: false },
    });
    const file = {
      templates: [
        {
          name: 'order_update',
          language: 'en',
          category: 'MARKETING' as const,
          header: { type: 'media' as const, media: { type: 'image' as const, file: 'banner.png' } },
          body: { text: 'Sale {{1}} today', variables: ['A'] },
          unsubscribeButton: true,
        },
      ],
    };
    expect(plan(file, server({ templates: [stored] })).changes).toEqual([]);
    // Same name in another language is another template.
    const other = plan({ templates: [{ ...file.templates[0], language: 'pt_BR' }] }, server({ templates: [stored] }));
    expect(other.changes.map((c) => [c.action, c.key])).toEqual([['create', 'order_update/pt_BR']]);
  });

  it('in a section the server cannot list, creates are marked unseen and the notes say so', () => {
    const result = plan({ labels: [{ name: 'urgent' }] }, server({ labels: [] }, false));
    expect(result.changes).toMatchObject([{ action: 'create', key: 'urgent', unseen: true }]);
    const text = planText(result, 'ws.yaml', false);
    expect(text).toContain('+ labels urgent (unseen)\n');
    expect(text).toContain('Note: labels: cannot list.');
  });

  it('a role whose record has no permissions is not compared on them, and the plan says so', () => {
    const current: Observation = { roles: { items: [SECTIONS.roles.observe({ id: 2, name: 'Agent' })], complete: true, notes: [] } };
    const result = plan({ roles: [{ name: 'Agent', permissions: ['contacts.view'] }] }, current);
    expect(result.changes).toEqual([]);
    expect(result.notes).toEqual(['roles Agent: the server does not show its permissions, so they are not compared']);
  });

  it('runs creates and updates in dependency order, then deletes in reverse', () => {
    const current = server({ fields: [named(1, 'old_field')], labels: [label(1, 'old')], templates: [template(1)], roles: [] });
    const result = plan({ fields: ['city'], roles: [{ name: 'Agent' }], labels: [{ name: 'new' }], templates: [] }, current, {
      prune: true,
    });
    expect(executionOrder(result).map((c) => `${c.action} ${c.section}`)).toEqual([
      'create fields',
      'create labels',
      'create roles',
      'delete templates',
      'delete labels',
      'delete fields',
    ]);
  });

  it('plan data for -o json carries ids and fields, not the entries, and what it was made against', () => {
    const result = plan({ labels: [{ name: 'urgent', color: '#00ff00' }] }, server({ labels: [label(4, 'urgent', '#ff0000')] }));
    const target = { server: 'https://api.example.com/api/v3', workspace: WS, workspaceName: 'Staging', profile: 'ci' };
    expect(planData(result, { file: 'ws.yaml', target })).toEqual({
      file: 'ws.yaml',
      server: 'https://api.example.com/api/v3',
      workspace: WS,
      workspace_name: 'Staging',
      profile: 'ci',
      changes: [
        { action: 'update', section: 'labels', key: 'urgent', id: 4, fields: [{ field: 'color', old: '#ff0000', new: '#00ff00' }] },
      ],
      counts: { create: 0, update: 1, replace: 0, delete: 0, blocked: 0 },
      unmanaged: [],
      notes: [],
    });
  });
});

describe('pull', () => {
  it('writes every section sorted by name, and reads back as identical', () => {
    const current = server({
      fields: [named(2, 'plan_tier'), named(1, 'city')],
      groups: [],
      labels: [label(3, 'urgent', '#ff0000'), label(1, 'calm')],
      roles: [role(1, 'Owner', []), role(5, 'Agent', ['contacts.update', 'contacts.view'])],
      templates: [template(9)],
    });
    const text = renderPulled(pulledFile(current), 'yaml', './schema.json');
    expect(text).toBe(
      [
        '# yaml-language-server: $schema=./schema.json',
        '',
        'fields:',
        '  - city',
        '  - plan_tier',
        'groups: []',
        'labels:',
        '  - name: calm',
        '  - name: urgent',
        '    color: "#ff0000"',
        'roles:',
        '  - name: Agent',
        '    permissions:',
        '      - contacts.view',
        '      - contacts.update',
        'templates:',
        '  - name: order_update',
        '    language: en',
        '    category: UTILITY',
        '    body:',
        '      text: Your order {{1}} is on its way.',
        '      variables:',
        '        - A-1',
        '',
      ].join('\n'),
    );
    expect(makePlan(parse(parseYaml(text)), current, { prune: true, replaceTemplates: false }).changes).toEqual([]);
    const json = JSON.parse(renderPulled(pulledFile(current), 'json', './schema.json'));
    expect(json.$schema).toBe('./schema.json');
    expect(makePlan(parse(json), current, { prune: true, replaceTemplates: false }).changes).toEqual([]);
  });

  it('leaves out a section the server cannot list', () => {
    expect(pulledFile(server({ labels: [label(1, 'a')] }, false))).toEqual({});
  });

  it('points at the schema relative to the file when wsm is installed in that project, else not at all (never a path of this machine)', () => {
    const schema = ['', 'repo', 'node_modules', 'wsm', 'dist', 'workspace-file.schema.json'].join(sep);
    expect(schemaReference(`${sep}repo`, schema)).toBe('./node_modules/wsm/dist/workspace-file.schema.json');
    expect(schemaReference(`${sep}repo${sep}config`, schema)).toBe('../node_modules/wsm/dist/workspace-file.schema.json');
    expect(schemaReference(`${sep}elsewhere`, schema)).toBeUndefined();
    const global = ['', 'usr', 'lib', 'node_modules', 'wsm', 'dist', 'workspace-file.schema.json'].join(sep);
    expect(schemaReference(`${sep}home${sep}ann${sep}infra`, global)).toBeUndefined();
    const file = { labels: [{ name: 'VIP' }] };
    expect(renderPulled(file, 'yaml', undefined)).toBe('labels:\n  - name: VIP\n');
    expect(JSON.parse(renderPulled(file, 'json', undefined))).toEqual(file);
  });
});

describe('JSON Schema of the file', () => {
  it('is generated from the create schemas: patterns, enums, strict items', () => {
    const schema = workspaceFileJsonSchema() as {
      properties: Record<string, { items: Record<string, unknown> & { properties?: Record<string, unknown> } }>;
      additionalProperties: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.fields.items).toMatchObject({ type: 'string', pattern: '^[a-z_]+$' });
    expect(schema.properties.labels.items).toMatchObject({ additionalProperties: false, required: ['name'] });
    expect(JSON.stringify(schema.properties.labels.items.properties)).toContain('^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$');
    expect(schema.properties.roles.items.properties).toMatchObject({
      permissions: { items: { enum: expect.arrayContaining(['contacts.view', 'templates.sync']) } },
    });
    expect(schema.properties.templates.items).toMatchObject({ required: ['name', 'language', 'category'], additionalProperties: false });
  });
});

describe('state file', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'wsm-state-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps ids per server and workspace, and writes only when something changes', async () => {
    const path = join(dir, 'ws.yaml.state.json');
    const staging = await openState(path, 'http://staging.test/api/v3', WS);
    expect(staging.ids('labels')).toEqual({});
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
    await staging.record('labels', 'urgent', 12);
    const production = await openState(path, 'http://prod.test/api/v3/', WS);
    await production.record('templates', 'order_update/en', 3);
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toEqual({
      version: 1,
      workspaces: {
        [`http://staging.test/api/v3/workspaces/${WS}`]: { labels: { urgent: 12 } },
        [`http://prod.test/api/v3/workspaces/${WS}`]: { templates: { 'order_update/en': 3 } },
      },
    });
    await production.forget('templates', 'order_update/en');
    expect((await openState(path, 'http://prod.test/api/v3', WS)).ids('templates')).toEqual({});
    expect((await openState(path, 'http://staging.test/api/v3', WS)).ids('labels')).toEqual({ urgent: 12 });
  });

  it('a state file that is not one is exit 2, never overwritten', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(path, '{"labels": {"urgent": "twelve"}}');
    const refusal: unknown = await openState(path, 'http://x.test/api/v3', WS).catch((error: unknown) => error);
    expect(exitCodeFor(refusal)).toBe(2);
    expect((refusal as Error).message).toContain('is not a wsm state file');
    expect(await readFile(path, 'utf8')).toBe('{"labels": {"urgent": "twelve"}}');
  });
});
