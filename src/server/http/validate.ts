import type { z } from 'zod';
import { check } from '../../api/schemas/index.js';
import { validationFailed } from './errors.js';

/** Validates with the shared contract or throws the 422 of decisions.md §1. */
export function parseOr422<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  // No body at all reads as an empty one; a JSON `null` is a body, and not an object.
  const result = check(schema, data === undefined ? {} : data);
  if (!result.ok) throw validationFailed(result.errors);
  return result.value;
}

/** Path ids: anything but a positive integer is a 404, never a 500 (decisions.md §1). */
export function pathId(raw: string | undefined, onMissing: () => Error): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw onMissing();
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw onMissing();
  return id;
}
