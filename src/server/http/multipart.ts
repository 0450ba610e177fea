/**
 * Reads a multipart form into the same object the JSON form would give
 * (decisions.md §1 bracket names: `contact_groups[]=3`, `header[media][type]=image`),
 * with file parts kept apart, bounded in size and count.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { payloadTooLarge } from './errors.js';

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
  maxFiles?: number;
  maxFields?: number;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `a[b][]` -> ['a', 'b', ''];  names with unbalanced brackets stay one literal key. */
export function splitFieldName(name: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return [name];
  const rest = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  return [match[1], ...rest];
}

type Tree = Record<string, unknown>;

export function assignField(target: Tree, name: string, value: unknown): void {
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
export function arraysFromIndexes(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const entries = Object.entries(value as Tree).map(([k, v]) => [k, arraysFromIndexes(v)] as const);
  const keys = entries.map(([k]) => k);
  const isList = keys.length > 0 && keys.every((k) => /^\d+$/.test(k)) && keys.map(Number).sort((a, b) => a - b).every((n, i) => n === i);
  if (isList) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  return Object.fromEntries(entries);
}

export function isMultipart(request: FastifyRequest): boolean {
  return request.isMultipart();
}

export async function readForm(request: FastifyRequest, spec: FormSpec): Promise<{ fields: Tree; files: UploadedFile[] }> {
  const fields: Tree = {};
  const files: UploadedFile[] = [];
  const parts = request.parts({
    limits: {
      fileSize: spec.maxFileBytes,
      files: spec.maxFiles ?? 4,
      fields: spec.maxFields ?? 200,
      fieldSize: 1024 * 1024,
      parts: (spec.maxFiles ?? 4) + (spec.maxFields ?? 200),
    },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      assignField(fields, part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
      continue;
    }
    const base = { field: part.fieldname, filename: part.filename, declaredType: part.mimetype };
    const diskPath = spec.toDisk?.[part.fieldname]?.();
    if (diskPath) {
      await pipeline(part.file, createWriteStream(diskPath));
      if (part.file.truncated) throw payloadTooLarge();
      files.push({ ...base, path: diskPath, size: part.file.bytesRead });
    } else {
      const buffer = await part.toBuffer();
      files.push({ ...base, buffer, size: buffer.length });
    }
  }
  return { fields: arraysFromIndexes(fields) as Tree, files };
}
