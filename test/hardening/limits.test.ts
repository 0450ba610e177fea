/**
 * Size and count limits: JSON bodies over 1 MB, avatars over 2 MB, template media over its type's
 * limit, imports over 100 MB (streamed from a generator: this process never holds them, and the
 * server's peak RSS must stay bounded), too many multipart parts or fields. Always 413 `{message:
 * 'Payload too large.', status: 413}` (or a 422), never a 5xx, and nothing left on disk.
 * Requires `npm run build` for the real `wsm serve` part.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createHarness, type Harness } from '../server/harness.js';
import { cleanup, serve, type Served } from '../e2e/processes.js';
import { AVATAR_MAX_BYTES, IMPORT_MAX_BYTES, MEDIA_RULES } from '../../src/api/schemas/index.js';

const MB = 1024 * 1024;
const TOO_LARGE = { message: 'Payload too large.', status: 413 };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** PNG magic bytes padded to `size`: sniffed as a PNG, `size` bytes long. */
const pngOf = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]);
const mp4Of = (size: number) => Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.alloc(size - 12, 0)]);

type Part = { name: string; value: string | Buffer; filename?: string; type?: string; headers?: string };
const BOUNDARY = 'limitsBoundaryQ7';
function multipart(parts: Part[]) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file =
      part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n${part.headers ?? ''}\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}
const fields = (record: Record<string, string>): Part[] => Object.entries(record).map(([name, value]) => ({ name, value }));
const templateFields = (type: string) =>
  fields({
    name: `media_${type}_${Math.random().toString(36).slice(2, 8).replace(/\d/g, 'x')}`,
    language: 'en',
    category: 'UTILITY',
    'body[text]': 'Hello there friend',
    'header[type]': 'media',
    'header[media][type]': type,
  });

/** Every file the server may have left behind in its uploads folder (not the stored avatars: those are in the db). */
function leftovers(uploads: string): string[] {
  return ['imports', 'media'].flatMap((sub) =>
    existsSync(join(uploads, sub)) ? readdirSync(join(uploads, sub)).map((f) => `${sub}/${f}`) : [],
  );
}

describe('limits through app.inject', () => {
  let h: Harness;
  let userId: number;
  let contactId: number;
  const ws = () => `/api/v3/workspaces/${h.ws}`;

  beforeAll(async () => {
    h = await createHarness();
    const role = (await h.call({ method: 'POST', url: `${ws()}/roles`, payload: { name: 'Limits' } })).json().data;
    userId = (
      await h.call({
        method: 'POST',
        url: `${ws()}/users`,
        payload: { name: 'Limit User', email: 'limit@example.com', password: 'password-1', role_id: role.id },
      })
    ).json().data.id;
    contactId = (await h.call({ method: 'POST', url: `${ws()}/contacts`, payload: { number: '5550007000' } })).json().data.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 413 to a JSON body over 1 MB on every route that takes one, and takes one just under', async () => {
    const jsonRoutes = h.app.routeTable.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.schema?.body);
    expect(jsonRoutes.length).toBeGreaterThanOrEqual(15);
    const over = JSON.stringify({ name: 'x'.repeat(MB) });
    const under = JSON.stringify({ name: 'x'.repeat(MB - 100) });
    for (const route of jsonRoutes) {
      const url = route.url
        .replace(':workspace', h.ws)
        .replace(/:[a-z_-]+/g, (p) => String(p === ':user' ? userId : p === ':contact' ? contactId : 1));
      const big = await h.call({ method: route.method as 'POST', url, payload: over, headers: { 'content-type': 'application/json' } });
      expect(`${route.method} ${route.url} ${big.statusCode} ${big.body}`).toBe(
        `${route.method} ${route.url} 413 ${JSON.stringify(TOO_LARGE)}`,
      );
      const fits = await h.call({ method: route.method as 'POST', url, payload: under, headers: { 'content-type': 'application/json' } });
      expect([200, 201, 404, 422], `${route.method} ${route.url} -> ${fits.statusCode}`).toContain(fits.statusCode);
    }
  });

  it('answers 413 to an avatar over 2 MB (contacts create and update, users avatar, avatar.0, avatar.1) and takes exactly 2 MB', async () => {
    const over = pngOf(AVATAR_MAX_BYTES + 1);
    const cases = [
      {
        url: `${ws()}/contacts`,
        parts: [...fields({ number: '5550007001' }), { name: 'avatar', value: over, filename: 'a.png', type: 'image/png' }],
      },
      {
        url: `${ws()}/contacts/${contactId}`,
        parts: [...fields({ name: 'Big' }), { name: 'avatar', value: over, filename: 'a.png', type: 'image/png' }],
      },
      ...['avatar', 'avatar.0', 'avatar.1'].map((name) => ({
        url: `${ws()}/users/${userId}`,
        parts: [{ name, value: over, filename: 'a.png', type: 'image/png' }],
      })),
    ];
    for (const { url, parts } of cases) {
      const res = await h.call({ method: 'POST', url, ...multipart(parts) });
      expect([413, 422], `${url} ${parts.at(-1)!.name} -> ${res.statusCode}`).toContain(res.statusCode);
      if (res.statusCode === 413) expect(res.json()).toEqual(TOO_LARGE);
    }
    const exact = await h.call({
      method: 'POST',
      url: `${ws()}/contacts`,
      ...multipart([
        ...fields({ number: '5550007002' }),
        { name: 'avatar', value: pngOf(AVATAR_MAX_BYTES), filename: 'a.png', type: 'image/png' },
      ]),
    });
    expect(exact.statusCode).toBe(201);
    expect(exact.json().data.avatar_url).toEqual(expect.any(String));
  });

  it('answers 413 to template media over its type limit (image 5 MB, video 16 MB) and takes an image of exactly 5 MB', async () => {
    for (const [type, file] of [
      ['image', pngOf(MEDIA_RULES.image.maxBytes + 1)],
      ['video', mp4Of(MEDIA_RULES.video.maxBytes + 1)],
    ] as const) {
      const res = await h.call({
        method: 'POST',
        url: `${ws()}/templates`,
        ...multipart([
          ...templateFields(type),
          { name: 'header[media][file]', value: file, filename: `f.${type}`, type: 'application/octet-stream' },
        ]),
      });
      expect(`${type} ${res.statusCode} ${res.body}`).toBe(`${type} 413 ${JSON.stringify(TOO_LARGE)}`);
    }
    const exact = await h.call({
      method: 'POST',
      url: `${ws()}/templates`,
      ...multipart([
        ...templateFields('image'),
        { name: 'header[media][file]', value: pngOf(MEDIA_RULES.image.maxBytes), filename: 'f.png', type: 'image/png' },
      ]),
    });
    expect(exact.statusCode, exact.body).toBe(201);
    expect(leftovers(join(h.dir, 'uploads'))).toEqual([]);
  });

  it('answers 413 or 422 to too many fields or files, never a 5xx to oversized names, values or part headers, and keeps nothing', async () => {
    const routes = [
      { url: `${ws()}/contacts`, maxFiles: 4 },
      { url: `${ws()}/contacts/${contactId}`, maxFiles: 4 },
      { url: `${ws()}/users/${userId}`, maxFiles: 3 },
      { url: `${ws()}/templates`, maxFiles: 1 },
      { url: `${ws()}/contact-imports`, maxFiles: 1 },
    ];
    const csv = (i: number): Part => ({
      name: 'file',
      value: `number\n55500080${String(i).padStart(2, '0')}\n`,
      filename: `${i}.csv`,
      type: 'text/csv',
    });
    const tooMany = (maxFiles: number): Array<[string, Part[]]> => [
      ['300 fields', Array.from({ length: 300 }, (_, i) => ({ name: `f${i}`, value: 'x' }))],
      ['300 values of one array', Array.from({ length: 300 }, () => ({ name: 'contact_groups[]', value: '1' }))],
      [`${maxFiles + 1} files`, Array.from({ length: maxFiles + 1 }, (_, i) => csv(i))],
    ];
    const oversized: Array<[string, Part[]]> = [
      ['a 2 MB field value', [{ name: 'name', value: 'v'.repeat(2 * MB) }]],
      ['a 10 KB field name', [{ name: 'n'.repeat(10_000), value: 'x' }]],
      ['a 100 KB part header', [{ name: 'name', value: 'x', headers: `X-Padding: ${'p'.repeat(100 * 1024)}\r\n` }]],
      ['3000 part headers', [{ name: 'name', value: 'x', headers: Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join('') }]],
    ];
    const problems: string[] = [];
    for (const { url, maxFiles } of routes) {
      for (const [label, parts] of [...tooMany(maxFiles), ...oversized]) {
        const res = await h.call({ method: 'POST', url, ...multipart(parts) });
        const body = res.json();
        const rejected =
          (res.statusCode === 413 && JSON.stringify(body) === JSON.stringify(TOO_LARGE)) ||
          (res.statusCode === 422 && body.message === 'Validation error' && Object.keys(body.errors ?? {}).length > 0);
        const acceptable = rejected || (oversized.some(([name]) => name === label) && res.statusCode < 300);
        if (!acceptable) problems.push(`${label} -> ${url.split('/').slice(5).join('/')}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(leftovers(join(h.dir, 'uploads'))).toEqual([]);
  });
});

describe('limits against a real wsm serve, streamed', () => {
  let server: Served;
  let token: string;
  let base: string;
  const uploads = () => join(server.dir, 'wsm.db.uploads');
  const peakRssMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;

  beforeAll(async () => {
    server = await serve(['--approval-delay', '0']);
    const local = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).profiles.local;
    token = local.token;
    base = `${server.url}/workspaces/${local.workspace}`;
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) await server?.kill();
    if (server) cleanup(server.dir);
  });

  /** A multipart body whose file part is `size` bytes made up on the fly: never held here. */
  function streamedForm(
    formFields: Record<string, string>,
    file: { name: string; filename: string; head: Buffer; size: number; fill: Buffer },
  ): Readable {
    let preamble = '';
    for (const [name, value] of Object.entries(formFields))
      preamble += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    preamble += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    async function* bytes() {
      yield Buffer.from(preamble);
      yield file.head;
      for (let sent = file.head.length; sent < file.size; sent += file.fill.length) {
        yield sent + file.fill.length <= file.size ? file.fill : file.fill.subarray(0, file.size - sent);
      }
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  async function post(path: string, body: Readable, contentType: string) {
    const res = await request(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    return { status: res.statusCode, body: await res.body.json() };
  }

  it('answers 413 to an import over 100 MB, keeps no file, and its peak RSS stays under 300 MB', async () => {
    const fill = Buffer.alloc(64 * 1024, '5550000001,Somebody with a long name\n');
    const res = await post(
      '/contact-imports',
      streamedForm(
        { name: 'too big' },
        { name: 'file', filename: 'big.csv', head: Buffer.from('number,name\n'), size: IMPORT_MAX_BYTES + MB, fill },
      ),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(res).toEqual({ status: 413, body: TOO_LARGE });
    expect(leftovers(uploads())).toEqual([]);
    expect(peakRssMb()).toBeLessThan(300);
    const list = await request(`${base}/contact-imports`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.body.json()) as { meta: { total: number } }).meta.total).toBe(0);
  });

  it('answers 413 to a template document over 100 MB without holding it in memory', async () => {
    const res = await post(
      '/templates',
      streamedForm(
        {
          name: 'huge_document',
          language: 'en',
          category: 'UTILITY',
          'body[text]': 'Hello there friend',
          'header[type]': 'media',
          'header[media][type]': 'document',
        },
        {
          name: 'header[media][file]',
          filename: 'big.pdf',
          head: Buffer.from('%PDF-1.4\n'),
          size: MEDIA_RULES.document.maxBytes + MB,
          fill: Buffer.alloc(64 * 1024, 'x'),
        },
      ),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(res).toEqual({ status: 413, body: TOO_LARGE });
    expect(leftovers(uploads())).toEqual([]);
    expect(peakRssMb()).toBeLessThan(300);
  });

  it("answers 413 to a JSON body over 1 MB sent by undici (the CLI's client), streamed or whole, and keeps serving", async () => {
    // The server refuses at 1 MB while the client is still sending: it must read on long enough
    // for the client to see the 413 rather than a reset connection (EPIPE).
    async function* chunked() {
      yield Buffer.from('{"name":"');
      for (let i = 0; i < 40; i++) yield Buffer.alloc(64 * 1024, 'j');
      yield Buffer.from('"}');
    }
    const whole = JSON.stringify({ name: 'w'.repeat(2 * MB) });
    for (let round = 0; round < 5; round++) {
      expect(await post('/labels', Readable.from(chunked()), 'application/json')).toEqual({ status: 413, body: TOO_LARGE });
      const res = await request(`${base}/labels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: whole,
      });
      expect({ status: res.statusCode, body: await res.body.json() }).toEqual({ status: 413, body: TOO_LARGE });
    }
    const ok = await request(`${base}/labels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after' }),
    });
    expect(ok.statusCode).toBe(201);
    await ok.body.dump();
    expect(peakRssMb()).toBeLessThan(300);
  });
});
