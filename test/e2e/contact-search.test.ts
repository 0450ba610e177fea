import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, localProfile, wsm } from './processes.js';

let server: Backend;
let contactsUrl: string;
let auth: Record<string, string>;

/** Name, number, e-mail: each query below names the contacts it must find and those it must not. */
const PEOPLE: Array<[string, string, string | null]> = [
  ['Invoice 2024-01-02', '3312340001', null],
  ['Ref 20240102', '3312340002', null],
  ['Pi', '3312340003', 'v3.14@x.io'],
  ['Unit 314', '3312340004', null],
  ['UK office', '+44 7700 900123', null],
  ['Router 10.0.0.1', '3312340005', null],
  ['Office (555)', '3312340006', null],
  ['Dispatch', '(555) 010-2030', null],
  ['Ticket 5550102030', '3312340007', 'desk5550102030@x.io'],
  ['Table (7)', '3312340008', null],
];

beforeAll(async () => {
  server = await serveBackend();
  const { token, workspace } = localProfile(server);
  contactsUrl = `${server.url}/workspaces/${workspace}/contacts`;
  auth = { authorization: `Bearer ${token}` };
  for (const [name, number, email] of PEOPLE) {
    const res = await fetch(contactsUrl, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, number, email }),
    });
    expect(res.status).toBe(201);
  }
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

async function search(query: string): Promise<{ names: string[]; total: number }> {
  const res = await fetch(`${contactsUrl}?search=${encodeURIComponent(query)}&per_page=100`, { headers: auth });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Array<{ name: string }>; meta: { total: number } };
  return { names: body.data.map((c) => c.name), total: body.meta.total };
}

describe('GET contacts?search= on wsm serve', () => {
  it('finds a date in a name as typed, not the name holding its digits', async () => {
    expect(await search('2024-01-02')).toEqual({ names: ['Invoice 2024-01-02'], total: 1 });
  });

  it('finds a decimal in an e-mail as typed', async () => {
    expect(await search('3.14')).toEqual({ names: ['Pi'], total: 1 });
    expect(await search('V3.14@X')).toEqual({ names: ['Pi'], total: 1 });
  });

  it('finds an address and parentheses in names as typed', async () => {
    expect(await search('10.0.0.1')).toEqual({ names: ['Router 10.0.0.1'], total: 1 });
    // `(555)` is in one name; its digits are in one number (stored 5550102030).
    expect(await search('(555)')).toEqual({ names: ['Office (555)', 'Dispatch'], total: 2 });
  });

  it('finds a number however it is written, and no contact that holds its digits elsewhere', async () => {
    expect(await search('+44 7700 900123')).toEqual({ names: ['UK office'], total: 1 });
    expect(await search('447700900123')).toEqual({ names: ['UK office'], total: 1 });
    expect(await search('(555) 010-2030')).toEqual({ names: ['Dispatch'], total: 1 });
    expect(await search('555.010.2030')).toEqual({ names: ['Dispatch'], total: 1 });
  });

  it('finds a short number in numbers and its text in names alike', async () => {
    // `(7)` holds one digit: the keys are scanned rather than the trigram index asked.
    expect(await search('(7)')).toEqual({ names: ['UK office', 'Ticket 5550102030', 'Table (7)'], total: 3 });
  });
});

describe('wsm contacts list --search (the binary)', () => {
  it('finds a date in a name and a number as written', async () => {
    const date = await wsm(server.env, ['contacts', 'list', '--search', '2024-01-02', '-o', 'json']);
    expect(date.stderr).toBe('');
    expect(date.code).toBe(0);
    expect(JSON.parse(date.stdout).map((c: { name: string }) => c.name)).toEqual(['Invoice 2024-01-02']);
    const number = await wsm(server.env, ['contacts', 'list', '--search', '+44 7700 900123', '-o', 'json']);
    expect(number.code).toBe(0);
    expect(JSON.parse(number.stdout).map((c: { name: string }) => c.name)).toEqual(['UK office']);
  });
});
