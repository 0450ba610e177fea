import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { IMPORT_MAX_BYTES, type FieldErrors } from '../../api/schemas/index.js';
import { toImportRecord, type ImportRow } from '../repositories/imports.js';
import { foundRecord } from '../http/path-record.js';
import { notFound, validationFailed } from '../http/errors.js';
import { checkBody, described, validQuery } from '../http/contract.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { listRoute, recordId } from './workspace-records.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { created, deletedEnvelope } from '../http/envelopes.js';
import { readForm, type UploadedFile } from '../http/multipart.js';
import { checkImportFile } from '../../api/import-csv.js';
import { registerImportWorker } from '../workers/imports.js';

const removeFiles = (paths: string[]) => Promise.all(paths.map((path) => rm(path, { force: true })));

/** The name a client gave its file, without any folder part some clients send. */
const displayName = (file: UploadedFile) => basename(file.filename.replaceAll('\\', '/')).slice(0, 255) || 'import.csv';

const { operations } = DESCRIPTIONS.imports;

/** The published API: list, create (multipart), delete; get one is the extension that polls progress. */
export const importRoutes: FastifyPluginAsync = async (app) => {
  const { imports, groups } = app.repositories;
  const worker = registerImportWorker(app);
  const importsDir = join(app.uploadsDir, 'imports');
  const importId = recordId(operations.get);

  /** Streams the upload to disk (never whole into memory); every file written is reported for clean-up. */
  async function receive(request: FastifyRequest, written: string[]) {
    if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown>, file: undefined };
    await mkdir(importsDir, { recursive: true, mode: 0o700 });
    const target = () => {
      const path = join(importsDir, `${randomUUID()}.csv`);
      written.push(path);
      return path;
    };
    // One file part at most; beyond 100 MB the upload is cut and answered 413.
    const form = await readForm(request, {
      maxFileBytes: IMPORT_MAX_BYTES,
      maxFiles: operations.create.fileParts,
      toDisk: { file: target },
    });
    return { fields: form.fields, file: form.files.find((file) => file.field === 'file' && file.path) };
  }

  listRoute(app, operations.list, s.importListQuery, imports);

  app.route({
    ...described(operations.create, { body: s.importCreateBody }),
    handler: async (request, reply) => {
      const written: string[] = [];
      let kept: string | undefined;
      try {
        const { fields, file } = await receive(request, written);
        let totalRows = 0;
        // `contact_groups[]=3` is how this API family sends groups elsewhere; one of them is one group.
        const groupField =
          Array.isArray(fields.contact_groups) && fields.contact_groups.length === 1 ? fields.contact_groups[0] : fields.contact_groups;
        const parsed = checkBody(request, { ...fields, contact_groups: groupField });
        const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
        if (!file?.path) errors.file = ['The file field is required.'];
        else {
          const checked = await checkImportFile(file.path);
          if (!checked.ok) errors.file = [checked.message];
          else totalRows = checked.dataRows;
        }
        const groupId = parsed.ok ? (parsed.value.contact_groups ?? null) : null;
        if (groupId !== null && groups.existingIds(request.workspaceId, [groupId]).size === 0) {
          errors.contact_groups = ['The selected contact group is invalid.'];
        }
        if (!parsed.ok || Object.keys(errors).length > 0 || !file?.path) throw validationFailed(errors);
        const row = imports.create(request.workspaceId, {
          name: parsed.value.name || displayName(file),
          groupId,
          fileName: displayName(file),
          storedPath: file.path,
          // Counted while the file was checked: the worker does not read it again to count.
          totalRows,
          // The worker runs without the request: whether the uploader may create the groups the file names is decided now.
          mayCreateGroups: request.membership.permissions.includes('contact_groups.create'),
        });
        kept = file.path;
        worker.kick();
        return reply.code(201).send(created('Contact import', toImportRecord(row)));
      } finally {
        // A rejected upload leaves nothing behind on disk.
        await removeFiles(written.filter((path) => path !== kept));
      }
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const row = imports.find(request.workspaceId, importId(request.params));
      if (!row) throw notFound();
      return { data: toImportRecord(row) };
    },
  });

  // Extension: every error the import noted, a page at a time (its record shows the first 100).
  app.route({
    ...described(operations.errors, { querystring: s.importErrorListQuery }),
    handler: async (request) => {
      const row = foundRecord<ImportRow>(request);
      const page = validQuery(request);
      return pageEnvelope(request, page, row.errors_total, imports.errors(row.id, offsetOf(page), page.per_page));
    },
  });

  // Contacts it created stay; the record and the uploaded file go (decisions.md §3).
  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      const storedPath = imports.delete(request.workspaceId, importId(request.params));
      if (storedPath === undefined) throw notFound();
      await rm(storedPath, { force: true });
      return deletedEnvelope('Contact import');
    },
  });
};
