// A server's 401/403/404/422 in the user's words: the record and the action, read from the failing
// request's path (`DELETE …/contacts/4` -> "contact 4", "delete contacts"). The method and path
// themselves are noise to most users; handleError adds them only with -v.
import { CATALOG, type ResourceIdentity } from '../api/descriptions/catalog.js';
import type { APIStatusError } from '../api/errors.js';

/** API collection segment -> [singular, plural] as users name them (the CLI's resource names), from the descriptions. */
const NOUNS: Record<string, readonly [string, string]> = Object.fromEntries(
  Object.values(CATALOG).flatMap((identity: ResourceIdentity) => (identity.sentence ? [[identity.segment, identity.sentence]] : [])),
);

const VERBS: Record<string, string> = { GET: 'view', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** Laravel's default 403 text: it says nothing the sentence does not. */
const GENERIC_FORBIDDEN = /^(This action is unauthorized\.?|Forbidden\.?)?$/i;

interface Target {
  workspace?: string;
  /** The last known collection the path names, with the id after it when there is one. */
  noun?: readonly [string, string];
  id?: string;
  /** A word after the collection (or its id) that is no id: `templates/sync`. */
  action?: string;
  /** Nothing after the workspace id but (at most) one collection. */
  workspaceOnly: boolean;
}

function targetOf(url: string): Target {
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { workspaceOnly: false };
  }
  const at = segments.indexOf('workspaces');
  if (at < 0 || at + 1 >= segments.length) return { workspaceOnly: false };
  const workspace = segments[at + 1];
  const rest = segments.slice(at + 2);
  const target: Target = { workspace, workspaceOnly: rest.length === 0 || (rest.length === 1 && rest[0] in NOUNS) };
  rest.forEach((segment, i) => {
    if (segment in NOUNS) Object.assign(target, { noun: NOUNS[segment], id: undefined, action: undefined });
    else if (/^\d+$/.test(segment) && target.noun && i > 0 && rest[i - 1] in NOUNS) target.id = segment;
    else if (target.noun) target.action = segment;
  });
  return target;
}

/**
 * `contact 999 not found`, `workspace … (from WSM_WORKSPACE) not found or not yours`, or undefined
 * (the server's words stay). `workspaceSource` says where a workspace id came from.
 */
export function notFoundSentence(err: APIStatusError, workspaceSource: (id: string) => string = () => ''): string | undefined {
  const target = targetOf(err.url);
  if (target.noun && target.id !== undefined && target.action === undefined) return `${target.noun[0]} ${target.id} not found`;
  if (target.workspaceOnly) return `workspace ${target.workspace}${workspaceSource(target.workspace!)} not found or not yours`;
  return undefined;
}

/** `your role may not delete contacts`; a specific server reason is kept as it is. */
export function forbiddenSentence(err: APIStatusError): string {
  const target = targetOf(err.url);
  if (!target.noun || !GENERIC_FORBIDDEN.test(err.message.trim())) return `permission denied: ${err.message}`;
  // A POST to a record is an update sent as a form (users); to a word after it, that action.
  const post = target.action ?? (target.id !== undefined ? 'update' : 'create');
  const verb = err.method === 'POST' ? post : (VERBS[err.method] ?? err.method.toLowerCase());
  return `your role may not ${verb} ${target.noun[1]}`;
}

/** What a 422 rejected: `contact` in `the server rejected the contact:`, else `request`. */
export function rejectedNoun(err: APIStatusError): string {
  return targetOf(err.url).noun?.[0] ?? 'request';
}
