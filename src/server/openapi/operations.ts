/**
 * What the OpenAPI document says about each route beyond what the route table
 * knows: a summary, a tag and the contract schemas of its request and answer.
 * Keys are `METHOD path` under /api/v3; path parameters match whatever their
 * name (`{contact}` and `:contact` alike). A route missing here still appears
 * in the document, with a generic description.
 */
import type { z } from 'zod';
import * as s from '../../api/schemas/index.js';
import { AVATAR_KINDS, MIME } from '../http/sniff.js';

export interface OperationDoc {
  summary: string;
  tag: string;
  description?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may (true) or must ('only') be a multipart form. */
  multipart?: boolean | 'only';
  /** File parts of the multipart form, by their bracket names. */
  files?: string[];
  /** The success answer; `binary` for a file download. */
  response?: z.ZodType | 'binary';
  /** The content types a `binary` answer comes in (application/octet-stream unless given). */
  binaryTypes?: string[];
  /** The success status (200 unless given). */
  status?: number;
  /** Statuses beyond those the route table implies (401, 403, 404, 413, 422, 503). */
  errors?: number[];
}

export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'Auth', description: 'Bearer tokens and the calling user (extensions of the embedded server).' },
  { name: 'Workspaces', description: 'Workspaces and their permissions.' },
  { name: 'Contacts', description: 'Contacts, identified by their phone number.' },
  { name: 'Contact groups', description: 'Named groups of contacts.' },
  { name: 'Contact fields', description: 'Custom field definitions for contacts.' },
  { name: 'Contact imports', description: 'CSV imports of contacts, processed in the background.' },
  { name: 'Labels', description: 'Labels that categorise contacts.' },
  { name: 'Roles', description: 'Roles and the permissions they grant.' },
  { name: 'Users', description: 'Users who are members of a workspace.' },
  { name: 'Templates', description: 'Message templates submitted to the template provider for approval.' },
  { name: 'Files', description: 'Stored uploads such as avatars.' },
  { name: 'Meta', description: 'This document.' },
];

const ws = '/workspaces/{workspace}';

/** A record resource with list, create, get, update (PUT) and delete. */
function crud(
  tag: string,
  path: string,
  noun: string,
  schemas: { query: z.ZodType; create: z.ZodType; update?: z.ZodType; list: z.ZodType; one: z.ZodType; created: z.ZodType; updated?: z.ZodType },
): Record<string, OperationDoc> {
  const out: Record<string, OperationDoc> = {
    [`GET ${path}`]: { tag, summary: `List ${noun}s`, query: schemas.query, response: schemas.list },
    [`POST ${path}`]: { tag, summary: `Create a ${noun}`, body: schemas.create, response: schemas.created, status: 201 },
    [`GET ${path}/{id}`]: { tag, summary: `Get a ${noun}`, response: schemas.one },
    [`DELETE ${path}/{id}`]: { tag, summary: `Delete a ${noun}`, response: s.deleted },
  };
  if (schemas.update) {
    out[`PUT ${path}/{id}`] = { tag, summary: `Update a ${noun}`, body: schemas.update, response: schemas.updated };
  }
  return out;
}

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST /auth/tokens': {
    tag: 'Auth',
    summary: 'Issue a bearer token',
    description:
      'Exchanges an e-mail and password for a bearer token, which expires at `expires_at` (30 days by default). ' +
      'Attempts are limited per e-mail and per client address: beyond the limit, 429 with `Retry-After` (seconds).',
    body: s.tokenCreateBody,
    response: s.tokenCreatedResponse,
    status: 201,
    errors: [429],
  },
  'DELETE /auth/tokens/current': {
    tag: 'Auth',
    summary: 'Revoke the calling token',
    description: 'The bearer token of this request stops working at once (`wsm auth logout`).',
    response: s.tokenRevokedResponse,
  },
  'GET /me': { tag: 'Auth', summary: 'Get the calling user and its workspaces', response: s.meResponse },

  'POST /workspaces': { tag: 'Workspaces', summary: 'Create a workspace', body: s.workspaceCreateBody, response: s.workspaceCreatedResponse, status: 201 },
  [`GET ${ws}`]: { tag: 'Workspaces', summary: 'Get a workspace', response: s.workspaceResponse },
  [`GET ${ws}/permissions`]: { tag: 'Workspaces', summary: 'List the permissions enabled in a workspace', response: s.permissionsListResponse },
  'PATCH /workspaces/partner/permissions': {
    tag: 'Workspaces',
    summary: 'Set the default permissions of new partner workspaces',
    description: 'Partner users only.',
    body: s.partnerPermissionsBody,
    response: s.partnerPermissionsResponse,
  },

  [`GET ${ws}/contacts`]: { tag: 'Contacts', summary: 'List contacts', description: '`search` matches name, number and e-mail.', query: s.contactListQuery, response: s.contactListResponse },
  [`POST ${ws}/contacts`]: {
    tag: 'Contacts',
    summary: 'Create a contact',
    body: s.contactCreateBody,
    multipart: true,
    files: ['avatar'],
    response: s.contactCreatedResponse,
    status: 201,
    errors: [413],
  },
  [`GET ${ws}/contacts/{contact}`]: { tag: 'Contacts', summary: 'Get a contact', response: s.contactResponse },
  [`POST ${ws}/contacts/{contact}`]: {
    tag: 'Contacts',
    summary: 'Update a contact',
    body: s.contactUpdateBody,
    multipart: true,
    files: ['avatar'],
    response: s.contactUpdatedResponse,
    errors: [413],
  },
  [`DELETE ${ws}/contacts/{contact}`]: { tag: 'Contacts', summary: 'Delete a contact', response: s.deleted },

  ...crud('Contact groups', `${ws}/contact-groups`, 'contact group', {
    query: s.groupListQuery, create: s.groupCreateBody, update: s.groupUpdateBody, list: s.groupListResponse,
    one: s.groupResponse, created: s.groupCreatedResponse, updated: s.groupUpdatedResponse,
  }),
  ...crud('Contact fields', `${ws}/contact-fields`, 'contact field', {
    query: s.fieldListQuery, create: s.fieldCreateBody, update: s.fieldUpdateBody, list: s.fieldListResponse,
    one: s.fieldResponse, created: s.fieldCreatedResponse, updated: s.fieldUpdatedResponse,
  }),

  [`GET ${ws}/contact-imports`]: { tag: 'Contact imports', summary: 'List contact imports', query: s.importListQuery, response: s.importListResponse },
  [`POST ${ws}/contact-imports`]: {
    tag: 'Contact imports',
    summary: 'Start a contact import',
    description: 'A CSV file with a `number` column; rows are processed in the background after the 201.',
    body: s.importCreateBody,
    multipart: 'only',
    files: ['file'],
    response: s.importCreatedResponse,
    status: 201,
    errors: [413],
  },
  [`GET ${ws}/contact-imports/{import}`]: { tag: 'Contact imports', summary: 'Get a contact import (poll its progress)', response: s.importResponse },
  [`DELETE ${ws}/contact-imports/{import}`]: { tag: 'Contact imports', summary: 'Delete a contact import', response: s.deleted },

  ...crud('Labels', `${ws}/labels`, 'label', {
    query: s.labelListQuery, create: s.labelCreateBody, update: s.labelUpdateBody, list: s.labelListResponse,
    one: s.labelResponse, created: s.labelCreatedResponse, updated: s.labelUpdatedResponse,
  }),
  ...crud('Roles', `${ws}/roles`, 'role', {
    query: s.roleListQuery, create: s.roleCreateBody, update: s.roleUpdateBody, list: s.roleListResponse,
    one: s.roleResponse, created: s.roleCreatedResponse, updated: s.roleUpdatedResponse,
  }),
  [`PUT ${ws}/roles/{id}`]: {
    tag: 'Roles',
    summary: 'Update a role',
    description:
      'Sets the name and/or the permissions. A built-in role (`builtin: true`, the Owner role every workspace is created with) ' +
      'cannot be renamed or re-permissioned: 422 naming why; a body repeating what it is changes nothing.',
    body: s.roleUpdateBody,
    response: s.roleUpdatedResponse,
  },
  [`DELETE ${ws}/roles/{id}`]: {
    tag: 'Roles',
    summary: 'Delete a role',
    description: 'A built-in role, or a role still assigned to a member, cannot be deleted: 422 naming why.',
    response: s.deleted,
    errors: [422],
  },

  [`GET ${ws}/users`]: { tag: 'Users', summary: 'List users', query: s.userListQuery, response: s.userListResponse },
  [`POST ${ws}/users`]: { tag: 'Users', summary: 'Create a user in the workspace', body: s.userCreateBody, response: s.userCreatedResponse, status: 201 },
  [`GET ${ws}/users/{user}`]: { tag: 'Users', summary: 'Get a user', response: s.userResponse },
  [`POST ${ws}/users/{user}`]: {
    tag: 'Users',
    summary: 'Update a user',
    description:
      'Role and status belong to the membership in this workspace: an owner of the workspace changes them for anyone else; ' +
      "a holder of `users.manage` for a member whose permissions here it covers (never an owner). What belongs to the person " +
      "(password, e-mail, name, time zone, avatar) is changed by someone else only when that holds in every workspace the " +
      "person belongs to (403 naming why otherwise), a partner's only by a partner; password and e-mail need `users.manage`. " +
      'Nobody changes their own role or status; a role given must hold only permissions the caller holds, and only an owner ' +
      "gives the built-in role. A new password revokes the user's other tokens. A deactivated member gets 403 in this " +
      'workspace only; a user with no active membership left, 401 everywhere.',
    body: s.userUpdateBody,
    multipart: true,
    files: ['avatar', 'avatar.0', 'avatar.1'],
    response: s.userUpdatedResponse,
    errors: [413],
  },

  [`GET ${ws}/templates`]: {
    tag: 'Templates',
    summary: 'List templates',
    description: 'Filters: `status`, `category`, `search` (part of the name).',
    query: s.templateListQuery,
    response: s.templateListResponse,
  },
  [`POST ${ws}/templates`]: {
    tag: 'Templates',
    summary: 'Create a template',
    description:
      'Submits the template to the provider for review; it starts PENDING. A media header is sent as multipart ' +
      'with the file in `header[media][file]` (image JPEG/PNG up to 5 MB, video MP4 up to 16 MB, document PDF up to 100 MB).',
    body: s.templateCreateBody,
    multipart: true,
    files: ['header[media][file]'],
    response: s.templateCreatedResponse,
    status: 201,
    errors: [413, 500],
  },
  [`GET ${ws}/templates/{template}`]: { tag: 'Templates', summary: 'Get a template', response: s.templateResponse },
  [`DELETE ${ws}/templates/{template}`]: {
    tag: 'Templates',
    summary: 'Delete a template',
    description: 'Removes the template at once; the deletion at the provider follows in the background and is retried until it succeeds.',
    response: s.templateDeletedResponse,
  },
  [`POST ${ws}/templates/sync`]: {
    tag: 'Templates',
    summary: 'Synchronise template statuses with the provider',
    description:
      'Fetches the provider\'s review of every PENDING template and updates their statuses. 404 when nothing is pending; ' +
      '500 (naming the cause) when the provider cannot be reached, with every status left as it was.',
    response: s.templateSyncResponse,
    errors: [404, 500],
  },

  'GET /files/{file}': {
    tag: 'Files',
    summary: 'Download a stored file',
    description: 'The URL itself is the capability; no token needed. Stored files are avatars, served as the image type their bytes show.',
    response: 'binary',
    binaryTypes: AVATAR_KINDS.map((kind) => MIME[kind]),
  },
  'GET /openapi.json': { tag: 'Meta', summary: 'This OpenAPI document' },
};

/** `/workspaces/:workspace/x/{id}` and `/workspaces/{ws}/x/:y` give the same key. */
export const operationKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+/g, '{}')}`;

const byKey = new Map(Object.entries(OPERATIONS).map(([key, doc]) => {
  const [method, path] = key.split(' ');
  return [operationKey(method, path), doc] as const;
}));

export const operationFor = (method: string, path: string): OperationDoc | undefined => byKey.get(operationKey(method, path));
