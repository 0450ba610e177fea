/**
 * What the server exposes: served files carry nosniff and a restrictive
 * CSP; a replaced avatar is no longer served; the database, uploads and temporary files are
 * owner-only; a 422 lists a bounded number of field errors; URLs in answers (pagination links,
 * avatar_url) are built from the server's own address, not from whatever Host a client sends.
 */
import { statSync, readdirSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { PNG, multipart } from './template-fixtures.js';
import { createSimulatedProvider } from '../../src/server/provider/simulated.js';
import type { TemplateProvider } from '../../src/server/provider/provider.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

async function userWithAvatar(bytes: Buffer, name: string) {
  const form = multipart([], [{ name: 'avatar', filename: name, type: 'image/png', bytes }]);
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/users/1`, ...form });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.avatar_url as string;
}

describe('served files', () => {
  it('carry X-Content-Type-Options: nosniff and a CSP that allows nothing to run; API answers carry nosniff too', async () => {
    h = await createHarness();
    const url = await userWithAvatar(PNG, 'a.png');
    const file = await h.call({ method: 'GET', url: new URL(url).pathname, token: null });
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const api = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels` });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a replaced user avatar is no longer served', async () => {
    h = await createHarness();
    const first = await userWithAvatar(PNG, 'a.png');
    const second = await userWithAvatar(GIF, 'b.gif');
    expect(second).not.toBe(first);
    expect((await h.call({ method: 'GET', url: new URL(second).pathname, token: null })).statusCode).toBe(200);
    const old = await h.call({ method: 'GET', url: new URL(first).pathname, token: null });
    expect({ status: old.statusCode, body: old.json() }).toEqual({ status: 404, body: { message: 'Resource not found.', status: 404 } });
    expect(h.db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1);
  });
});

describe('file modes', () => {
  it('the database, its WAL and shared memory, the uploads folder and stored imports are owner-only', async () => {
    h = await createHarness();
    await h.create(`/api/v3/workspaces/${h.ws}/labels`, { name: 'Written' });
    for (const suffix of ['', '-wal', '-shm'])
      expect({ file: `wsm.db${suffix}`, mode: modeOf(`${h.dbPath}${suffix}`) }).toEqual({ file: `wsm.db${suffix}`, mode: 0o600 });
    const form = multipart(
      [['name', 'Modes']],
      [{ name: 'file', filename: 'p.csv', type: 'text/csv', bytes: Buffer.from('number\n15550000001\n') }],
    );
    expect((await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-imports`, ...form })).statusCode).toBe(201);
    const uploads = join(h.dir, 'uploads');
    expect(modeOf(uploads)).toBe(0o700);
    expect(modeOf(join(uploads, 'imports'))).toBe(0o700);
    const [stored] = readdirSync(join(uploads, 'imports'));
    expect(modeOf(join(uploads, 'imports', stored))).toBe(0o600);
  });

  it('a template media file waiting for the provider is owner-only too', async () => {
    let release!: () => void;
    let seen: number | undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inner: TemplateProvider;
    const provider: TemplateProvider = {
      submit: (s) => inner.submit(s),
      list: (ws) => inner.list(ws),
      delete: (ws, id) => inner.delete(ws, id),
      async uploadMedia(ws, file) {
        const dir = join(h.dir, 'uploads', 'media');
        seen = modeOf(join(dir, readdirSync(dir)[0]));
        await gate;
        return inner.uploadMedia(ws, file);
      },
    };
    h = await createHarness({ provider });
    inner = createSimulatedProvider(h.db, { approvalDelayMs: 0 });
    const fields: Array<[string, string]> = Object.entries({
      name: 'media_modes',
      language: 'en',
      category: 'UTILITY',
      'header[type]': 'media',
      'header[media][type]': 'image',
      'body[text]': 'Hello there, friend.',
    });
    const pending = h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/templates`,
      ...multipart(fields, [{ name: 'header[media][file]', filename: 'b.png', type: 'image/png', bytes: PNG }]),
    });
    await new Promise((r) => setTimeout(r, 200));
    release();
    expect((await pending).statusCode).toBe(201);
    expect(seen).toBe(0o600);
  });
});

describe('a 422 with very many field errors', () => {
  it('lists at most 100 fields and says how many more there were, in the {message, errors} shape', async () => {
    h = await createHarness();
    // ~300 KB of bad permission names: one error each.
    const permissions = Array.from({ length: 40_000 }, (_, i) => `x${i}`);
    const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/roles`, payload: { name: 'Many', permissions } });
    expect(res.statusCode).toBe(422);
    expect(res.rawPayload.length).toBeLessThan(16 * 1024);
    const body = res.json();
    expect(body.message).toBe('Validation error');
    expect(Object.keys(body.errors)).toHaveLength(101);
    expect(body.errors['permissions.99']).toEqual(['The selected permission is invalid.']);
    expect(body.errors._truncated).toEqual(['39,900 more fields had errors: only the first 100 are listed.']);
  });
});

describe('URLs in answers', () => {
  it('pagination links and avatar_url ignore a Host header that is not the server', async () => {
    h = await createHarness();
    await userWithAvatar(PNG, 'a.png');
    for (let i = 0; i < 3; i++) await h.create(`/api/v3/workspaces/${h.ws}/labels`, { name: `L${i}` });
    const evil = { host: 'attacker.example' };
    const page = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels?per_page=1`, headers: evil });
    expect(page.json().links.next).toBe(`http://localhost/api/v3/workspaces/${h.ws}/labels?per_page=1&page=2`);
    const users = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/users`, headers: evil });
    expect(users.json().data[0].avatar_url).toMatch(/^http:\/\/localhost:80\/api\/v3\/files\//);
    const contacts = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts`, headers: evil });
    expect(contacts.json().links.first).toMatch(/^http:\/\/localhost\//);
    // The server's own names are kept as the client wrote them.
    const own = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels?per_page=1`, headers: { host: '127.0.0.1:80' } });
    expect(own.json().links.next).toMatch(/^http:\/\/127\.0\.0\.1\//);
  });

  it('links ignore a host named in the request line itself (its absolute form)', async () => {
    h = await createHarness({ listenHost: '127.0.0.1' });
    for (let i = 0; i < 2; i++) await h.create(`/api/v3/workspaces/${h.ws}/labels`, { name: `L${i}` });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const ask = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${h.token}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const path = `/api/v3/workspaces/${h.ws}/labels?per_page=1`;
    for (const host of ['http://evil.example', 'https://attacker.test:8443', '']) {
      const answer = await ask(`${host}${path}`);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      const { links } = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(links).toMatchObject({ first: `http://127.0.0.1:${port}${path}&page=1`, next: `http://127.0.0.1:${port}${path}&page=2` });
    }
  });
});
