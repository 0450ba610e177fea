// Reading a workspace file: YAML or JSON (YAML is a superset of JSON, so one parser reads both),
// checked entirely with the schema composed from the server's create schemas before anything is
// sent. Every problem is reported at once, by its path in the file and its line.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { MEDIA_RULES, fieldErrors, workspaceFile, type FieldErrors, type WorkspaceFile } from '../../api/schemas/index.js';
import { workspaceFileJsonSchema } from '../../api/schemas/workspace-file.js';
import type { Context } from '../../cli/context.js';
import { RequestValidationError } from '../../cli/errors.js';
import { hostFile, hostFileRefusal, readsHostFiles } from '../../cli/host-files.js';
import { addProblem as add, knownKeys, locate, unknownKeyMessage, type JsonSchemaNode, type Path } from '../shared/document-keys.js';
import { readTextInput } from '../shared/verb.js';
import { mediaFileOf } from './sections.js';

export interface LoadedFile {
  /** As given on the command line (`-` for stdin). */
  path: string;
  /** Where relative paths in the file (media headers) start. */
  dir: string;
  file: WorkspaceFile;
}

/** zod issues as field errors; an unknown key is named at its own path, with a hint for ids or the key it may mean. */
function schemaProblems(error: z.ZodError, data: unknown, doc: Document, lines: LineCounter): FieldErrors {
  const errors: FieldErrors = {};
  const rest: z.core.$ZodIssue[] = [];
  let schema: JsonSchemaNode | undefined;
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') {
      rest.push(issue);
      continue;
    }
    for (const key of issue.keys) {
      const path = [...issue.path, key] as Path;
      schema ??= workspaceFileJsonSchema() as JsonSchemaNode;
      const message =
        key === 'id'
          ? `"id" is not a known field: ids never appear in the file, items are known by name (templates by name and language).`
          : unknownKeyMessage(key, knownKeys(schema, issue.path as Path));
      add(errors, locate(doc, lines, path), message);
    }
  }
  const byPath = new Map(rest.map((issue) => [issue.path.map(String).join('.'), issue.path as Path]));
  for (const [key, messages] of Object.entries(fieldErrors({ issues: rest } as z.ZodError, data))) {
    const path = byPath.get(key === 'body' && !byPath.has('body') ? '' : key) ?? [];
    for (const message of messages) add(errors, locate(doc, lines, path), message);
  }
  return errors;
}

/** What a caller elsewhere is told of a media header's file: the same whatever it names. */
const REMOTE_MEDIA = { named: "a media header's `file`", instead: 'give a text header or none' };

/**
 * A media header's file must be there to be uploaded, and within its type's size. For a caller
 * elsewhere none is looked at: each is refused alike, whatever it names.
 */
async function mediaProblems(ctx: Context, file: WorkspaceFile, dir: string, doc: Document, lines: LineCounter): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const [index, template] of (file.templates ?? []).entries()) {
    const media = mediaFileOf(template);
    if (media === undefined || template.header?.type !== 'media') continue;
    const where = locate(doc, lines, ['templates', index, 'header', 'media', 'file']);
    if (!readsHostFiles(ctx)) {
      add(errors, where, `${hostFileRefusal(REMOTE_MEDIA)}.`);
      continue;
    }
    try {
      const info = await stat(hostFile(ctx, resolve(dir, media)));
      if (!info.isFile()) add(errors, where, `${media} is not a file.`);
      else if (info.size > MEDIA_RULES[template.header.media.type].maxBytes)
        add(errors, where, `${media} is larger than a ${template.header.media.type} header may be.`);
    } catch {
      add(errors, where, `${media} cannot be read.`);
    }
  }
  return errors;
}

/** Parses and checks the whole file; any problem is exit 2 with nothing sent. */
export async function readWorkspaceFile(ctx: Context, path: string): Promise<LoadedFile> {
  const text = await readTextInput(ctx, path);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const errors: FieldErrors = {};
    for (const error of doc.errors) add(errors, `line ${lines.linePos(error.pos[0]).line}`, error.message.split('\n')[0]);
    throw new RequestValidationError(`${path} is neither valid YAML nor valid JSON: nothing was sent`, errors);
  }
  const data = doc.toJS() ?? {};
  const result = workspaceFile.safeParse(data);
  if (!result.success) {
    throw new RequestValidationError(
      `${path} is not a valid workspace file: nothing was sent`,
      schemaProblems(result.error, data, doc, lines),
    );
  }
  const dir = path === '-' ? process.cwd() : dirname(resolve(path));
  const media = await mediaProblems(ctx, result.data, dir, doc, lines);
  if (Object.keys(media).length > 0)
    throw new RequestValidationError(`${path} names media files that cannot be uploaded: nothing was sent`, media);
  return { path, dir, file: result.data };
}
