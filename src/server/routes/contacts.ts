import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { AVATAR_MAX_BYTES, type FieldErrors } from '../../api/schemas/index.js';
import type { ContactPage, ContactRow, ContactWrite } from '../repositories/contacts.js';
import { filesBaseUrl } from '../repositories/files.js';
import { notFound, takenMessage, validationFailed } from '../http/errors.js';
import { offsetOf, pageEnvelopeJson } from '../http/pagination.js';
import { described, sentBody, validQuery } from '../http/contract.js';
import { deleteRoute, recordId } from './workspace-records.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { created, updated } from '../http/envelopes.js';
import { readForm, type UploadedFile } from '../http/multipart.js';
import { MIME, sniff } from '../http/sniff.js';
import type { SearchResult } from '../repositories/contact-search.js';
import type { FieldValue } from '../repositories/contact-filter.js';
import { withBracketRecords } from '../http/query.js';
import { foundRecord } from '../http/path-record.js';

const NOT_AN_IMAGE = 'The avatar must be an image (PNG, JPEG, GIF or WebP).';
const AVATAR_TYPES = new Set(['png', 'jpeg', 'gif', 'webp'] as const);
const { operations } = DESCRIPTIONS.contacts;
/**
 * Pages of contact lists kept per generation: 256 of at most 64 Ki characters (a page of 100
 * ordinary contacts is about 35 Ki), so at most 32 MB; a larger page (long field values) is read
 * every time.
 */
const PAGES_KEPT = 256;
const PAGE_KEPT_MAX_CHARS = 64 * 1024;

/** The body as the JSON form would give it, plus the avatar file of a multipart form. */
interface ContactForm {
  body: unknown;
  avatarFile?: UploadedFile;
  /** A multipart `avatar` part that was text, not a file. */
  avatarNotFile: boolean;
}

async function readContactForm(request: FastifyRequest): Promise<ContactForm> {
  if (!request.isMultipart()) return { body: request.body, avatarNotFile: false };
  // Beyond 2 MB the part is cut and the request answered 413 (readForm).
  const { fields, files } = await readForm(request, { maxFileBytes: AVATAR_MAX_BYTES, maxFiles: operations.create.fileParts });
  // A browser form with no file chosen sends an empty, nameless part: that is "no avatar".
  const avatarFile = files.find((file) => file.field === 'avatar' && (file.size > 0 || file.filename !== ''));
  return { body: fields, avatarFile, avatarNotFile: fields.avatar !== undefined && !avatarFile };
}

/** The avatar a form carries, checked to be an image; what is wrong goes into `errors`. */
function checkAvatar(form: ContactForm, errors: FieldErrors): ContactWrite['avatar'] {
  if (form.avatarNotFile) {
    errors.avatar = [NOT_AN_IMAGE];
    return undefined;
  }
  if (!form.avatarFile?.buffer) return undefined;
  const type = sniff(form.avatarFile.buffer);
  if (!type || !AVATAR_TYPES.has(type as 'png')) {
    errors.avatar = [NOT_AN_IMAGE];
    return undefined;
  }
  return { bytes: form.avatarFile.buffer, contentType: MIME[type] };
}

/**
 * A search's timing as a Server-Timing header (W3C): `page` the page's ids, whose description says
 * whether it started where an earlier page ended, `total` its count, whose description names what
 * counted it. Milliseconds measured in the server, so a client can tell the two apart although one
 * answer carries both.
 */
const serverTiming = ({ pageMs, totalMs, source, from }: SearchResult['timing']) =>
  `page;dur=${pageMs.toFixed(2)};desc="${from}", total;dur=${totalMs.toFixed(2)};desc="${source}"`;

export const contactRoutes: FastifyPluginAsync = async (app) => {
  const { contacts, groups, fields, generations } = app.repositories;
  const contactId = recordId(operations.get);
  const toRecord = (request: FastifyRequest, row: ContactRow) => contacts.record(row, filesBaseUrl(request));

  /**
   * The references a body makes to other rows: groups and contact fields of the
   * same workspace. Unknown ones are 422s under `contact_groups.N` / `fields.<name>`.
   */
  function resolveReferences(
    workspaceId: string,
    input: { contact_groups?: number[]; fields?: Record<string, string> },
    errors: FieldErrors,
  ): Pick<ContactWrite, 'groupIds' | 'fieldValues'> {
    let groupIds: number[] | undefined;
    if (input.contact_groups) {
      const known = groups.existingIds(workspaceId, input.contact_groups);
      input.contact_groups.forEach((id, index) => {
        if (!known.has(id)) errors[`contact_groups.${index}`] = ['The selected contact group is invalid.'];
      });
      groupIds = [...new Set(input.contact_groups)];
    }
    let fieldValues: Map<number, string> | undefined;
    if (input.fields) {
      const byName = fields.idsByName(workspaceId);
      fieldValues = new Map();
      for (const [name, value] of Object.entries(input.fields)) {
        const fieldId = byName.get(name);
        if (fieldId === undefined) errors[`fields.${name}`] = [`The ${name} field is not a contact field of this workspace.`];
        else fieldValues.set(fieldId, value.trim());
      }
    }
    return { groupIds, fieldValues };
  }

  /** The filter's fields by id; a name that is not a contact field of the workspace is a 422 under `fields.<name>`. */
  function fieldFilter(workspaceId: string, filter: Record<string, string> | undefined): FieldValue[] {
    if (filter === undefined) return [];
    const byName = fields.idsByName(workspaceId);
    const errors: FieldErrors = {};
    const values: FieldValue[] = [];
    for (const [name, value] of Object.entries(filter)) {
      const fieldId = byName.get(name);
      if (fieldId === undefined) errors[`fields.${name}`] = [`The ${name} field is not a contact field of this workspace.`];
      else values.push({ fieldId, value });
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    return values;
  }

  const pages = generations.cache<ContactPage>(PAGES_KEPT, (page) => page.json.length <= PAGE_KEPT_MAX_CHARS);
  /** List requests filtering on a `__proto__` field, found as the query is read. */
  const protoFiltered = new WeakSet<FastifyRequest>();

  // The page's records arrive as JSON text from SQLite and go out as they are; a page asked again
  // before anything in the database changed is answered from memory (repositories/generations.ts).
  // A search is not kept: its Server-Timing header tells what that search cost.
  // A field filter (`fields[city]=Lisbon`) is an extension: `--api-only` leaves it out as the hosted
  // service would, and an answer that applied it says so in `meta.field_filter`, so that a client
  // tells a filtered page from a server that ignored the filter.
  app.route({
    ...described(operations.list, { querystring: s.contactListQuery }),
    // `fields[city]=…` becomes a record before the query is validated (http/contract.ts's hook).
    preValidation: (request, _reply, done) => {
      if (app.apiOnly) return done();
      const query = withBracketRecords(request.query, 'fields') as { fields?: object };
      request.query = query;
      if (query.fields && Object.hasOwn(query.fields, '__proto__')) protoFiltered.add(request);
      done();
    },
    handler: async (request, reply) => {
      // zod's record leaves a `__proto__` key out of what it reads: refused, never a list unfiltered;
      // here, after authorisation, so that a stranger gets the 404 (http/auth.ts), not this 422.
      if (protoFiltered.has(request))
        throw validationFailed({ 'fields.__proto__': ['The __proto__ field is not a contact field of this workspace.'] });
      const query = validQuery(request);
      const offset = offsetOf(query);
      const search = query.search || undefined;
      const files = filesBaseUrl(request);
      const values = fieldFilter(request.workspaceId, query.fields);
      const read = () => contacts.pageJson(request.workspaceId, search, offset, query.per_page, files, values);
      const page =
        search || values.length > 0
          ? read()
          : pages.through(request.generation, `${request.workspaceId}/${offset}/${query.per_page}/${files}`, read)!;
      const body = pageEnvelopeJson(
        request,
        query,
        page.total,
        page.count,
        page.json,
        values.length > 0 ? { field_filter: query.fields } : undefined,
      );
      if (page.timing) reply.header('server-timing', serverTiming(page.timing));
      return reply.type('application/json; charset=utf-8').send(body);
    },
  });

  app.route({
    ...described(operations.create, { body: s.contactCreateBody }),
    handler: async (request, reply) => {
      const form = await readContactForm(request);
      const avatarErrors: FieldErrors = {};
      const avatar = checkAvatar(form, avatarErrors);
      // The body's fields and the avatar in one 422 (http/contract.ts checks the body, JSON or form).
      const body = sentBody(request, form.body, avatarErrors);
      const errors: FieldErrors = {};
      if (contacts.idOfNumber(request.workspaceId, body.number) !== undefined) errors.number = [takenMessage('number')];
      const references = resolveReferences(request.workspaceId, body, errors);
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      const row = contacts.create(request.workspaceId, body.number, {
        // An empty name (a blank form field) reads as "omitted" (the published API: defaults to Unknown).
        name: body.name || 'Unknown',
        email: body.email ?? null,
        gender: body.gender ?? null,
        status: body.status ?? true,
        avatar,
        ...references,
      });
      return reply.code(201).send(created('Contact', toRecord(request, row)));
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const row = contacts.find(request.workspaceId, contactId(request.params));
      if (!row) throw notFound();
      return { data: toRecord(request, row) };
    },
  });

  // The published API defines the update as POST (its PUT label is a documentation slip).
  app.route({
    ...described(operations.update, { body: s.contactUpdateBody }),
    handler: async (request) => {
      const form = await readContactForm(request);
      // A form arrives after the hook found the contact, and another request may have changed or
      // deleted it while the upload ran: then it is read again. A JSON body came with the request.
      const current = request.isMultipart()
        ? contacts.find(request.workspaceId, contactId(request.params))
        : foundRecord<ContactRow>(request);
      if (!current) throw notFound();
      const avatarErrors: FieldErrors = {};
      const avatar = checkAvatar(form, avatarErrors);
      const body = sentBody(request, form.body, avatarErrors);
      const errors: FieldErrors = {};
      const references = resolveReferences(request.workspaceId, body, errors);
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      // Omitted keeps, null clears; `number` is never changed here (the published API).
      const row = contacts.update(current, {
        name: body.name,
        email: body.email === undefined ? current.email : body.email,
        gender: body.gender === undefined ? current.gender : body.gender,
        status: body.status ?? current.status === 1,
        avatar,
        ...references,
      });
      return updated('Contact', toRecord(request, row));
    },
  });

  deleteRoute(app, operations.delete, contacts);
};
