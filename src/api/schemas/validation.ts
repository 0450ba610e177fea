/**
 * Turns zod issues into the API's 422 shape: `{field.path: [sentence, ...]}`
 * with dotted keys (`body.text`, `buttons.1.url`). The CLI uses the same
 * function so a local failure reads exactly like the server's.
 */
import type { z } from 'zod';

export type FieldErrors = Record<string, string[]>;

function label(path: PropertyKey[]): string {
  const last = [...path].reverse().find((p) => typeof p === 'string');
  return String(last ?? 'value').replace(/_/g, ' ');
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cursor: unknown = data;
  for (const key of path) {
    if (cursor === null || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Record<PropertyKey, unknown>)[key];
  }
  return cursor;
}

type Issue = z.core.$ZodIssue;

/** An enum of more choices than this is refused without listing them. */
const MAX_VALUES_NAMED = 12;

/** One issue in the API's words (`The name field is required.`): the 422's, the CLI's and an MCP call's arguments'. */
export function sentence(issue: Issue, data: unknown): string {
  const field = label(issue.path);
  const custom = (issue as { params?: { custom?: boolean } }).params?.custom;
  if (custom) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // The body itself (JSON `null`, `[]`, `"text"` where an object is expected).
      if (issue.path.length === 0) return `The request body must be ${article(issue.expected)}.`;
      if (valueAt(data, issue.path) === undefined || valueAt(data, issue.path) === null) {
        return `The ${field} field is required.`;
      }
      return `The ${field} field must be ${article(issue.expected)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `The ${field} field must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `The ${field} field must not have more than ${issue.maximum} items.`;
      return `The ${field} field must not be greater than ${issue.maximum}.`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? `The ${field} field is required.`
          : `The ${field} field must be at least ${issue.minimum} characters.`;
      }
      if (issue.origin === 'array')
        return `The ${field} field must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}.`;
      return issue.inclusive === false
        ? `The ${field} field must be greater than ${issue.minimum}.`
        : `The ${field} field must be at least ${issue.minimum}.`;
    case 'invalid_format':
      if (issue.format === 'email') return `The ${field} field must be a valid email address.`;
      return issue.message.startsWith('Invalid') ? `The ${field} field format is invalid.` : issue.message;
    case 'invalid_value':
      // An enum left out is missing, not a wrong choice (Laravel's `required` comes first too).
      if (valueAt(data, issue.path) === undefined || valueAt(data, issue.path) === null) return `The ${field} field is required.`;
      // A short list of choices is named, so that the refusal says what to write instead.
      if (issue.values.length > 0 && issue.values.length <= MAX_VALUES_NAMED)
        return `The selected ${field} is invalid: it must be one of ${issue.values.map(String).join(', ')}.`;
      return `The selected ${field} is invalid.`;
    case 'invalid_union':
      return `The ${field} field is invalid.`;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return `a ${expected}`;
}

export function fieldErrors(error: z.ZodError, data: unknown): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'body';
    const text = sentence(issue, data);
    (out[key] ??= []).includes(text) || out[key].push(text);
  }
  return out;
}

/** Parses or returns the field errors: the one validation entry point. */
export function check<T extends z.ZodType>(
  schema: T,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(data);
  return result.success ? { ok: true, value: result.data } : { ok: false, errors: fieldErrors(result.error, data) };
}
