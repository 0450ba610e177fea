/**
 * The 26 operations of the published API, in memory, as a Laravel service might implement them. Where the published API
 * is silent the choices are Laravel's defaults, not `wsm serve`'s: 15 rows a page (10 for contacts),
 * records with extra fields and without the ones `wsm serve` adds, custom fields ignored.
 */
import {
  characters,
  HttpError,
  NOT_FOUND,
  paginate,
  timestamp,
  type Json,
  type Reply,
  type Request,
  type Router,
  type UploadedFile,
} from './http.js';
import { processImport } from './imports.js';
import type { Quirks } from './quirks.js';
import { registerTemplateRoutes } from './templates.js';

export interface Row extends Json {
  id: number;
}

export interface State {
  workspace: Json & { id: string };
  contacts: Row[];
  groups: Row[];
  fields: Row[];
  imports: Row[];
  labels: Row[];
  roles: Row[];
  users: Row[];
  templates: Row[];
  /** Grouped as GET …/permissions lists them. */
  permissions: Record<string, string[]>;
  partnerDefaults: string[];
  /** Syncs each PENDING template has been through, by id. */
  syncRounds: Map<number, number>;
  nextId: number;
}

export interface RouteContext {
  state: State;
  quirks: Quirks;
  /** How long an import takes to process after its 201. */
  importDelayMs: number;
}

const GENDERS = ['male', 'female', 'other'];

export function registerRoutes(router: Router, ctx: RouteContext): void {
  const { state } = ctx;
  const ws = '/workspaces/{workspace}';
  const inWorkspace = (handler: (request: Request) => Reply | Promise<Reply>) => (request: Request) => {
    if (request.params.workspace !== state.workspace.id) throw new HttpError(404, NOT_FOUND);
    return handler(request);
  };
  const fail = (errors: Record<string, string[]>, message = 'Validation error'): never => {
    throw new HttpError(ctx.quirks.validationStatus ?? 422, { message, errors });
  };
  const out = (row: Json) => (ctx.quirks.stringIds && typeof row.id === 'number' ? { ...row, id: String(row.id) } : row);
  const list = (request: Request, rows: Json[], defaultPerPage = 15) => {
    const reply = paginate(request, rows, {
      defaultPerPage,
      perPageMax: ctx.quirks.perPageMax,
      simple: ctx.quirks.simplePaginator === true,
      cursor: ctx.quirks.cursorPaginator === true,
      fail,
    });
    const body = reply.body as { data: Json[] };
    return { ...reply, body: { ...body, data: body.data.map(out) } };
  };
  const find = (rows: Row[], raw: string): Row => {
    const row = /^\d+$/.test(raw) ? rows.find((r) => r.id === Number(raw)) : undefined;
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  };
  const now = () => timestamp();
  const newRow = (fields: Json): Row => ({ id: state.nextId++, ...fields, created_at: now(), updated_at: now() });
  const createdEnvelope = (resource: string, row: Json): Reply => ({
    status: 201,
    body: { status: 201, message: `${resource} created successfully.`, data: out(row) },
  });
  const updatedEnvelope = (resource: string, row: Json): Reply => ({
    status: 200,
    body: { status: 200, message: `${resource} updated successfully.`, data: out(row) },
  });
  const deletedEnvelope = (resource: string): Reply => ({
    status: 200,
    body: { message: `${resource} deleted successfully.`, status: 200 },
  });
  const uniqueName = (rows: Row[], name: unknown, except?: number) => rows.some((r) => r.name === name && r.id !== except);
  const permissionNames = () => Object.values(state.permissions).flat();
  const permissionOut = (names: string[]) =>
    ctx.quirks.permissionObjects ? names.map((name) => ({ id: permissionNames().indexOf(name) + 1, name, guard_name: 'sanctum' })) : names;

  // Workspaces and permissions
  router.add(
    'GET',
    ws,
    inWorkspace(() => ({ status: 200, body: { data: state.workspace } })),
  );
  router.add(
    'GET',
    `${ws}/permissions`,
    inWorkspace(() => ({
      status: 200,
      body: { data: Object.entries(state.permissions).map(([group, names]) => ({ [group]: permissionOut(names) })) },
    })),
  );
  router.add('PATCH', '/workspaces/partner/permissions', (request) => {
    const given = request.body.permissions;
    if (!Array.isArray(given) || given.length === 0) fail({ permissions: ['The permissions field is required.'] });
    const known = new Set(permissionNames());
    const errors: Record<string, string[]> = {};
    (given as unknown[]).forEach((name, index) => {
      if (typeof name !== 'string' || !known.has(name)) errors[`permissions.${index}`] = [`The selected permissions.${index} is invalid.`];
    });
    if (Object.keys(errors).length) fail(errors);
    state.partnerDefaults = given as string[];
    return {
      status: 200,
      body: { status: 200, message: 'Permissions updated successfully.', data: { permissions: state.partnerDefaults } },
    };
  });

  // Contacts
  router.add(
    'GET',
    `${ws}/contacts`,
    inWorkspace((request) => {
      const search = (request.query.get('search') ?? '').toLowerCase();
      const numberMatches = (n: unknown) =>
        typeof n === 'string' && !ctx.quirks.searchSkipsNumbers && (ctx.quirks.searchNumbersWhole ? n === search : n.includes(search));
      const texts = (c: (typeof state.contacts)[number]) => [c.name, c.email].filter((v): v is string => typeof v === 'string');
      const rows = search
        ? state.contacts.filter((c) => texts(c).some((v) => v.toLowerCase().includes(search)) || numberMatches(c.number))
        : state.contacts;
      return list(request, rows, 10);
    }),
  );
  router.add(
    'POST',
    `${ws}/contacts`,
    inWorkspace((request) => {
      const body = request.body;
      const errors = contactErrors(body, true);
      const number = typeof body.number === 'string' ? body.number.trim() : undefined;
      if (number !== undefined && state.contacts.some((c) => c.number === number)) {
        (errors.number ??= []).push('The number has already been taken.');
      }
      if (Object.keys(errors).length) fail(errors);
      // `fields` is not in the published API: ignored, like any unknown field.
      const contact = newRow({
        number: String(body.number).trim(),
        name: typeof body.name === 'string' && body.name !== '' ? body.name : 'Unknown',
        email: body.email ?? null,
        gender: body.gender ?? null,
        status: body.status === undefined ? true : truthy(body.status),
        avatar: null,
        deleted_at: null,
      });
      state.contacts.push(contact);
      return createdEnvelope('Contact', contact);
    }),
  );
  router.add(
    'POST',
    `${ws}/contacts/{contact}`,
    inWorkspace((request) => {
      const contact = find(state.contacts, request.params.contact);
      const errors = contactErrors(request.body, false);
      if (Object.keys(errors).length) fail(errors);
      const { name, email, gender, status } = request.body;
      Object.assign(contact, { name, updated_at: now() });
      if (email !== undefined) contact.email = email;
      if (gender !== undefined) contact.gender = gender;
      if (status !== undefined) contact.status = truthy(status);
      return updatedEnvelope('Contact', contact);
    }),
  );
  router.add(
    'DELETE',
    `${ws}/contacts/{contact}`,
    inWorkspace((request) => {
      const contact = find(state.contacts, request.params.contact);
      state.contacts.splice(state.contacts.indexOf(contact), 1);
      return { status: 200, body: { message: 'Contact deleted successfully.', status: 200 } };
    }),
  );

  // Contact groups and fields
  router.add(
    'GET',
    `${ws}/contact-groups`,
    inWorkspace((request) => list(request, state.groups)),
  );
  router.add(
    'POST',
    `${ws}/contact-groups`,
    inWorkspace((request) => {
      const name = nameOf(request.body, fail);
      if (uniqueName(state.groups, name)) fail({ name: ['The name has already been taken.'] });
      const group = newRow({ name, description: null });
      state.groups.push(group);
      return createdEnvelope('Contact group', group);
    }),
  );
  router.add(
    'GET',
    `${ws}/contact-fields`,
    inWorkspace((request) => list(request, state.fields)),
  );
  router.add(
    'POST',
    `${ws}/contact-fields`,
    inWorkspace((request) => {
      const name = nameOf(request.body, fail);
      if (!/^[a-z_]+$/.test(name)) fail({ name: ['The name field format is invalid.'] });
      if (uniqueName(state.fields, name)) fail({ name: ['The name has already been taken.'] });
      const field = newRow({ name, type: 'text' });
      state.fields.push(field);
      return createdEnvelope('Contact field', field);
    }),
  );
  router.add(
    'DELETE',
    `${ws}/contact-fields/{field}`,
    inWorkspace((request) => {
      const field = find(state.fields, request.params.field);
      state.fields.splice(state.fields.indexOf(field), 1);
      return deletedEnvelope('Contact field');
    }),
  );

  // Contact imports: processed a moment after the 201 (the published API: "how an import progresses: not shown").
  router.add(
    'GET',
    `${ws}/contact-imports`,
    inWorkspace((request) => list(request, state.imports)),
  );
  router.add(
    'POST',
    `${ws}/contact-imports`,
    inWorkspace((request) => {
      const file = request.body.file as UploadedFile | undefined;
      if (typeof file !== 'object' || file === null || typeof file.text !== 'string') fail({ file: ['The file field is required.'] });
      const record = newRow({
        name: typeof request.body.name === 'string' ? request.body.name : file!.filename,
        status: 'pending',
        file: `imports/${file!.filename}`,
      });
      state.imports.push(record);
      setTimeout(() => processImport(state, record, file!.text), ctx.importDelayMs).unref();
      return createdEnvelope('Contact import', record);
    }),
  );
  router.add(
    'DELETE',
    `${ws}/contact-imports/{import}`,
    inWorkspace((request) => {
      const record = find(state.imports, request.params.import);
      state.imports.splice(state.imports.indexOf(record), 1);
      return deletedEnvelope('Contact import');
    }),
  );

  // Labels: create, get, update only
  router.add(
    'POST',
    `${ws}/labels`,
    inWorkspace((request) => {
      const name = nameOf(request.body, fail);
      if (uniqueName(state.labels, name)) fail({ name: ['The name has already been taken.'] });
      const color = colorOf(request.body.color, fail);
      const label = newRow({ name, color: color ?? null });
      state.labels.push(label);
      return createdEnvelope('Label', label);
    }),
  );
  router.add(
    'GET',
    `${ws}/labels/{label}`,
    inWorkspace((request) => ({ status: 200, body: { data: out(find(state.labels, request.params.label)) } })),
  );
  router.add(
    'PUT',
    `${ws}/labels/{label}`,
    inWorkspace((request) => {
      const label = find(state.labels, request.params.label);
      const { name } = request.body;
      if (name === undefined && ctx.quirks.labelPutRequiresName) fail({ name: ['The name field is required.'] });
      if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) fail({ name: ['The name field must be a string.'] });
      if (name !== undefined && uniqueName(state.labels, name, label.id)) fail({ name: ['The name has already been taken.'] });
      const color = colorOf(request.body.color, fail);
      if (name !== undefined) label.name = name;
      if (color !== undefined) label.color = color;
      label.updated_at = now();
      return updatedEnvelope('Label', label);
    }),
  );

  // Roles: list and create only
  const roleOut = (role: Row) => {
    const { permissions, ...rest } = role;
    return ctx.quirks.rolesWithoutPermissions ? rest : { ...rest, permissions: permissionOut(permissions as string[]) };
  };
  router.add(
    'GET',
    `${ws}/roles`,
    inWorkspace((request) => list(request, state.roles.map(roleOut))),
  );
  router.add(
    'POST',
    `${ws}/roles`,
    inWorkspace((request) => {
      const name = nameOf(request.body, fail);
      if (uniqueName(state.roles, name)) fail({ name: ['The name has already been taken.'] });
      const role = newRow({ name, guard_name: 'sanctum', permissions: [] });
      state.roles.push(role);
      return createdEnvelope('Role', roleOut(role));
    }),
  );

  // Users: list and the multipart update
  router.add(
    'GET',
    `${ws}/users`,
    inWorkspace((request) => list(request, state.users)),
  );
  router.add(
    'POST',
    `${ws}/users/{user}`,
    inWorkspace((request) => {
      const user = find(state.users, request.params.user);
      const body = request.body;
      const errors: Record<string, string[]> = {};
      if (body.email !== undefined && !isEmail(body.email)) errors.email = ['The email field must be a valid email address.'];
      if (body.password !== undefined && (typeof body.password !== 'string' || body.password.length < 8))
        errors.password = ['The password field must be at least 8 characters.'];
      if (body.password !== undefined && body.password !== body.confirm_password)
        (errors.password ??= []).push('The password field confirmation does not match.');
      if (Object.keys(errors).length) fail(errors);
      for (const key of ['name', 'email', 'timezone'] as const) if (typeof body[key] === 'string') user[key] = body[key];
      for (const key of ['status', 'client'] as const) if (body[key] !== undefined) user[key] = truthy(body[key]);
      user.updated_at = now();
      return updatedEnvelope('User', user);
    }),
  );

  registerTemplateRoutes(router, ctx, { ws, inWorkspace, fail, out, newRow });
}

function contactErrors(body: Json, creating: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (creating && (typeof body.number !== 'string' || body.number.trim() === '')) errors.number = ['The number field is required.'];
  if (!creating && (typeof body.name !== 'string' || body.name.trim() === '')) errors.name = ['The name field is required.'];
  if (typeof body.name === 'string' && characters(body.name) > 50) errors.name = ['The name field must not be greater than 50 characters.'];
  if (body.email !== undefined && body.email !== null && !isEmail(body.email))
    errors.email = ['The email field must be a valid email address.'];
  if (body.gender !== undefined && body.gender !== null && !GENDERS.includes(body.gender as string))
    errors.gender = ['The selected gender is invalid.'];
  return errors;
}

function nameOf(body: Json, fail: (errors: Record<string, string[]>) => never): string {
  if (typeof body.name !== 'string' || body.name.trim() === '') fail({ name: ['The name field is required.'] });
  if (characters(body.name as string) > 255) fail({ name: ['The name field must not be greater than 255 characters.'] });
  return body.name as string;
}

function colorOf(color: unknown, fail: (errors: Record<string, string[]>) => never): string | null | undefined {
  if (color === undefined || color === null) return color;
  if (typeof color !== 'string' || color.length > 7) fail({ color: ['The color field must not be greater than 7 characters.'] });
  return color as string;
}

function isEmail(value: unknown): boolean {
  return typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}
