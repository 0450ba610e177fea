/**
 * The HTTP frame of the stand-in: a router that answers like Laravel's (a route it lacks is a 404
 * `{message}` without `status`; a known path with another method is a 405), bearer auth, bodies read
 * as JSON or as a multipart/urlencoded form (bracket names nested: `contact_groups[]`,
 * `header[media][type]`), and Laravel's paginator. Written from the published API alone: nothing of `src/`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Json = Record<string, unknown>;

/** Thrown by a handler: the status and body to answer with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export const NOT_FOUND = { message: 'Resource not found.', status: 404 };

/** An uploaded file part. */
export interface UploadedFile {
  filename: string;
  size: number;
  text: string;
}

export interface Request {
  method: string;
  /** Path under /api/v3, without the query string. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  /** The body as one object: JSON as sent, a form with its bracket names nested and files as UploadedFile. */
  body: Json;
  /** Absolute URL of this path, for paginator links. */
  url: string;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: Request) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): void {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
  }

  /** The route for a method and path, or why there is none (404 route missing, 405 other method). */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | 'no-route' | 'other-method' {
    const parts = path.split('/').filter(Boolean);
    let pathKnown = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { handler: route.handler, params };
      pathKnown = true;
    }
    return pathKnown ? 'other-method' : 'no-route';
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i];
    if (expected.startsWith('{')) params[expected.slice(1, -1)] = decodeURIComponent(parts[i]);
    else if (expected !== parts[i]) return undefined;
  }
  return params;
}

export interface FrameOptions {
  router: Router;
  token: () => string;
  /** Called for every request that reached a route, before auth: tests count what was sent. */
  record: (line: string) => void;
  /** Seconds to tell the client to wait (429) instead of answering this request, or undefined. */
  throttle?: () => number | undefined;
  /** Awaited before a request is handled: a slow service, or one holding its writes. */
  pace?: (method: string) => Promise<void>;
}

/** An http.Server answering under /api/v3; listen on it yourself. */
export function createFrame(options: FrameOptions): Server {
  return createServer((req, res) => {
    handle(req, res, options).catch((error) => {
      send(res, 500, { message: 'Server Error' });
      process.stderr.write(`stand-in: ${String(error?.stack ?? error)}\n`);
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, options: FrameOptions): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const method = req.method ?? 'GET';
  const raw = await readAll(req);
  if (!url.pathname.startsWith('/api/v3/')) return send(res, 404, routeMissing(url.pathname));
  const path = url.pathname.slice('/api/v3'.length).replace(/\/$/, '');
  const found = options.router.match(method, path);
  if (found === 'no-route') return send(res, 404, routeMissing(url.pathname));
  if (found === 'other-method') {
    return send(res, 405, { message: `The ${method} method is not supported for route ${url.pathname.slice(1)}.` });
  }
  const wait = options.throttle?.();
  if (wait !== undefined) return send(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': String(wait) });
  await options.pace?.(method);
  options.record(`${method} ${path}`);
  if (req.headers.authorization !== `Bearer ${options.token()}`) return send(res, 401, { message: 'Unauthenticated.' });
  try {
    const body = await readBody(req.headers['content-type'] ?? '', raw);
    const reply = await found.handler({
      method,
      path,
      query: url.searchParams,
      params: found.params,
      body,
      url: `${url.origin}${url.pathname}`,
    });
    send(res, reply.status, reply.body, reply.headers);
  } catch (error) {
    if (error instanceof HttpError) return send(res, error.status, error.body, error.headers);
    throw error;
  }
}

/** Laravel's answer for a path no route has: a 404 whose body has no `status`. */
function routeMissing(pathname: string): Json {
  return { message: `The route ${pathname.slice(1)} could not be found.` };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readBody(contentType: string, raw: Buffer): Promise<Json> {
  if (raw.length === 0) return {};
  if (contentType.startsWith('application/json')) {
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
    } catch {
      throw new HttpError(400, { message: 'Malformed JSON.' });
    }
  }
  if (contentType.startsWith('multipart/form-data') || contentType.startsWith('application/x-www-form-urlencoded')) {
    // The platform's own form parser (fetch's Request), so the stand-in shares no code with the server.
    const form = await new Request('http://stand-in/', { method: 'POST', headers: { 'content-type': contentType }, body: raw }).formData();
    const body: Json = {};
    for (const [name, value] of form.entries()) {
      const item = typeof value === 'string' ? value : { filename: value.name, size: value.size, text: await value.text() };
      setBracketed(body, name, item);
    }
    return body;
  }
  return {};
}

/** `a[b][c]=v` -> {a: {b: {c: v}}}; `a[]=v` appends to an array; `a[0]=v` sets index 0. */
function setBracketed(target: Json, name: string, value: unknown): void {
  const keys = name.replace(/\]/g, '').split('[');
  let cursor: Json | unknown[] = target;
  keys.forEach((key, index) => {
    const last = index === keys.length - 1;
    const container = cursor as Record<string, unknown>;
    if (key === '' && Array.isArray(cursor)) {
      if (last) cursor.push(value);
      else cursor = cursor[cursor.push(/^\d*$/.test(keys[index + 1]) ? [] : {}) - 1] as Json;
      return;
    }
    if (last) container[key] = value;
    else {
      container[key] ??= /^\d*$/.test(keys[index + 1]) ? [] : {};
      cursor = container[key] as Json;
    }
  });
}

/** Laravel's ISO 8601 with microseconds. */
/** A string's length as Laravel's `max` rule counts it (mb_strlen): characters, not UTF-16 units (an emoji is one). */
export const characters = (text: string): number => [...text].length;

export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export interface PaginatorOptions {
  defaultPerPage: number;
  perPageMax?: number;
  simple: boolean;
  cursor?: boolean;
  fail: (errors: Record<string, string[]>, message?: string) => never;
}

/**
 * Laravel's API resource paginator: `{data, links: {first, last, prev, next}, meta: {current_page, from,
 * last_page, links: [...], path, per_page, to, total}}`; the simple one has no `last_page`/`total`.
 * Its links carry only `page` (Laravel's default without withQueryString()).
 */
export function paginate<T>(request: Request, rows: T[], options: PaginatorOptions): Reply {
  if (options.cursor) return cursorPage(request, rows, options);
  const page = integerParam(request, 'page', 1, options);
  const perPage = integerParam(request, 'per_page', options.defaultPerPage, options);
  if (options.perPageMax !== undefined && perPage > options.perPageMax) {
    const text = `The per page field must not be greater than ${options.perPageMax}.`;
    options.fail({ per_page: [text] }, text);
  }
  const start = (page - 1) * perPage;
  const data = rows.slice(start, start + perPage);
  const lastPage = Math.max(1, Math.ceil(rows.length / perPage));
  const link = (n: number) => `${request.url}?page=${n}`;
  const hasMore = start + perPage < rows.length;
  const from = data.length ? start + 1 : null;
  const to = data.length ? start + data.length : null;
  if (options.simple) {
    return {
      status: 200,
      body: {
        data,
        links: { first: link(1), last: null, prev: page > 1 ? link(page - 1) : null, next: hasMore ? link(page + 1) : null },
        meta: { current_page: page, from, path: request.url, per_page: perPage, to },
      },
    };
  }
  const pageLinks = [
    { url: page > 1 ? link(page - 1) : null, label: '&laquo; Previous', active: false },
    ...Array.from({ length: Math.min(lastPage, 10) }, (_, i) => ({ url: link(i + 1), label: String(i + 1), active: i + 1 === page })),
    { url: page < lastPage ? link(page + 1) : null, label: 'Next &raquo;', active: false },
  ];
  return {
    status: 200,
    body: {
      data,
      links: {
        first: link(1),
        last: link(lastPage),
        prev: page > 1 ? link(page - 1) : null,
        next: page < lastPage ? link(page + 1) : null,
      },
      meta: {
        current_page: page,
        from,
        last_page: lastPage,
        links: pageLinks,
        path: request.url,
        per_page: perPage,
        to,
        total: rows.length,
      },
    },
  };
}

/** Laravel's cursorPaginate(): an opaque cursor (here, the offset of the next row) instead of page numbers. */
function cursorPage<T>(request: Request, rows: T[], options: PaginatorOptions): Reply {
  const perPage = integerParam(request, 'per_page', options.defaultPerPage, options);
  const cursor = request.query.get('cursor');
  const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(start) || start < 0) options.fail({ cursor: ['The cursor is invalid.'] });
  const next = start + perPage < rows.length ? Buffer.from(JSON.stringify(start + perPage)).toString('base64url') : null;
  return {
    status: 200,
    body: {
      data: rows.slice(start, start + perPage),
      path: request.url,
      per_page: perPage,
      next_cursor: next,
      next_page_url: next === null ? null : `${request.url}?cursor=${next}`,
      prev_cursor: null,
      prev_page_url: null,
    },
  };
}

function integerParam(request: Request, name: 'page' | 'per_page', fallback: number, options: PaginatorOptions): number {
  const raw = request.query.get(name);
  if (raw === null) return fallback;
  const label = name.replace('_', ' ');
  if (!/^\d+$/.test(raw)) options.fail({ [name]: [`The ${label} field must be an integer.`] });
  const value = Number(raw);
  if (value < 1) options.fail({ [name]: [`The ${label} field must be at least 1.`] });
  return value;
}
