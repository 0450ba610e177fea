/**
 * Reads a multipart form into the same object the JSON form would give
 * (decisions.md §1 bracket names: `contact_groups[]=3`, `header[media][type]=image`),
 * with file parts kept apart, bounded in size and count.
 */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError, invalidField, malformedBody, payloadTooLarge } from './errors.js';
import { watchPartCharsets } from './part-charsets.js';
import { decodeKeepingInvalid, invalidTextError } from './unicode.js';

export interface UploadedFile {
  field: string;
  filename: string;
  declaredType: string;
  size: number;
  /** In memory unless the field was routed to disk. */
  buffer?: Buffer;
  path?: string;
}

export interface FormSpec {
  /** Largest file part accepted, in bytes (413 beyond). */
  maxFileBytes: number;
  /** File fields written to disk instead of memory: field name -> target path maker. */
  toDisk?: Record<string, () => string>;
  /** File parts under any other name are read and dropped, never held in memory. */
  discardOtherFiles?: boolean;
  maxFiles?: number;
  maxFields?: number;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Brackets a field name may nest (the API's deepest is `header[media][file]`): deeper is a 422, not a stack overflow. */
const MAX_FIELD_NESTING = 10;

/** `a[b][]` -> ['a', 'b', ''];  names with unbalanced brackets stay one literal key. */
function splitFieldName(name: string): string[] {
  const depth = name.split('[').length - 1;
  if (depth > MAX_FIELD_NESTING) {
    const base = name.slice(0, name.indexOf('[')) || 'body';
    const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
    throw invalidField(base, `The field name ${shown} nests ${depth} levels of brackets: at most ${MAX_FIELD_NESTING} are read.`);
  }
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return [name];
  const rest = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  return [match[1], ...rest];
}

type Tree = Record<string, unknown>;

function assignField(target: Tree, name: string, value: unknown): void {
  const path = splitFieldName(name);
  if (path.some((key) => UNSAFE_KEYS.has(key))) return;
  let cursor: Tree = target;
  path.forEach((key, index) => {
    const last = index === path.length - 1;
    if (key === '') {
      // `[]` appends: keep a counter-free array under a numeric-keyed object.
      key = String(Object.keys(cursor).length);
    }
    if (last) {
      cursor[key] = value;
      return;
    }
    const next = cursor[key];
    if (next === null || typeof next !== 'object') cursor[key] = {};
    cursor = cursor[key] as Tree;
  });
}

/** Objects whose keys are all 0..n-1 become arrays, so `buttons[0][type]` reads like JSON. */
function arraysFromIndexes(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const entries = Object.entries(value as Tree).map(([k, v]) => [k, arraysFromIndexes(v)] as const);
  const keys = entries.map(([k]) => k);
  const isList =
    keys.length > 0 &&
    keys.every((k) => /^\d+$/.test(k)) &&
    keys
      .map(Number)
      .sort((a, b) => a - b)
      .every((n, i) => n === i);
  if (isList) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  return Object.fromEntries(entries);
}

export async function readForm(request: FastifyRequest, spec: FormSpec): Promise<{ fields: Tree; files: UploadedFile[] }> {
  const fields: Tree = {};
  const files: UploadedFile[] = [];
  // 'latin1' keeps a part's bytes as they came, to be checked as UTF-8 below; a part that declares
  // its own charset is decoded in it by the parser (part-charsets.ts says which).
  const parts = request.parts({
    defCharset: 'latin1',
    limits: {
      fileSize: spec.maxFileBytes,
      files: spec.maxFiles ?? 4,
      fields: spec.maxFields ?? 200,
      fieldSize: 1024 * 1024,
      parts: (spec.maxFiles ?? 4) + (spec.maxFields ?? 200),
    },
  });
  // A file part the parser had already given up on (the body ended inside it) comes out
  // destroyed but never ended: piping it would wait for ever. The loop goes on so that a limit
  // error still wins (413); otherwise the form is malformed.
  let cutShort = false;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const declared = boundary ? watchPartCharsets(request.raw, boundary[1] ?? boundary[2]) : new Set<string>();
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        const text = typeof part.value === 'string' ? part.value : String(part.value);
        assignField(fields, part.fieldname, declared.has(part.fieldname) ? text : decodeKeepingInvalid(Buffer.from(text, 'latin1')));
        continue;
      }
      if (part.file.destroyed && !part.file.readableEnded) {
        cutShort = true;
        continue;
      }
      const base = { field: part.fieldname, filename: part.filename, declaredType: part.mimetype };
      const diskPath = spec.toDisk && Object.hasOwn(spec.toDisk, part.fieldname) ? spec.toDisk[part.fieldname]() : undefined;
      if (!diskPath && spec.discardOtherFiles) {
        // Still read to the end, so that the size limit applies and the form goes on.
        await pipeline(part.file, new Writable({ write: (_chunk, _encoding, done) => done() }));
        if (part.file.truncated) throw payloadTooLarge();
        continue;
      }
      if (diskPath) {
        // Owner-only, like the database: uploads hold contacts' data.
        await pipeline(part.file, createWriteStream(diskPath, { mode: 0o600 }));
        if (part.file.truncated) throw payloadTooLarge();
        files.push({ ...base, path: diskPath, size: part.file.bytesRead });
      } else {
        const buffer = await part.toBuffer();
        files.push({ ...base, buffer, size: buffer.length });
      }
    }
  } catch (error) {
    throw asFormError(error);
  }
  if (cutShort) throw malformedBody();
  const tree = arraysFromIndexes(fields) as Tree;
  const invalid = invalidTextError(tree);
  if (invalid) throw invalid;
  return { fields: tree, files };
}

/**
 * The parser's own errors carry no status: a content type without boundary ("Multipart:
 * Boundary not found"), a body cut short ("Unexpected end of multipart data", a premature
 * close). Those are the client's malformed body (422), not a server fault (500). Errors that
 * already say what they are (our 413s, fastify's limits and 400s) and file-system errors
 * (a full disk is the server's problem) keep their meaning.
 */
function asFormError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const known = error as { statusCode?: unknown; syscall?: unknown };
  if (known !== null && typeof known === 'object' && (known.statusCode !== undefined || known.syscall !== undefined)) return error;
  return malformedBody();
}
