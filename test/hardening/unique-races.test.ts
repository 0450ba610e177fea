/**
 * Uniqueness races on users (issue 13, point 9): the e-mail check and the insert are split by
 * the password hash (scrypt, asynchronous), so parallel requests all pass the check; the
 * database's unique index then decides, and each loser must get the 422 a sequential request
 * gets, never a 500. Eight parallel requests over real HTTP against `wsm serve`, one socket
 * each. Requires `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, serve, type Served } from '../e2e/processes.js';

const PARALLEL = 8;
const TAKEN = { message: 'Validation error', errors: { email: ['The email has already been taken.'] } };

let server: Served;
let token: string;
let base: string;
const agent = new Agent({ connections: PARALLEL, pipelining: 0 });

beforeAll(async () => {
  server = await serve();
  const local = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).profiles.local;
  token = local.token;
  base = `${server.url}/workspaces/${local.workspace}`;
});
afterAll(async () => {
  await agent.close();
  if (server && server.process.exitCode === null) await server.kill();
  if (server) cleanup(server.dir);
});

async function send(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await request(`${base}${path}`, {
    method: method as 'POST',
    dispatcher: agent,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: await res.body.json() };
}

function expectOneWinner(answers: Array<{ status: number; body: any }>, winner: number) {
  expect(answers.map((a) => a.status).sort()).toEqual([winner, ...Array(PARALLEL - 1).fill(422)]);
  for (const answer of answers.filter((a) => a.status === 422)) expect(answer.body).toEqual(TAKEN);
}

describe('e-mail races over real HTTP', () => {
  let roleId: number;
  beforeAll(async () => {
    roleId = (await send('POST', '/roles', { name: 'Racers', permissions: ['contacts.view'] })).body.data.id;
  });

  it(`${PARALLEL} parallel user creates with one e-mail: one 201, the rest 422, never a 500`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => send('POST', '/users', { name: `Racer ${i}`, email: 'same@example.com', password: 'long enough 1', role_id: roleId })),
    );
    expectOneWinner(answers, 201);
  });

  it(`${PARALLEL} parallel updates of ${PARALLEL} users to one e-mail: one 200, the rest 422`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < PARALLEL; i++) {
      ids.push((await send('POST', '/users', { name: `Mover ${i}`, email: `mover${i}@example.com`, password: 'long enough 1', role_id: roleId })).body.data.id);
    }
    // A password in each update puts scrypt between the e-mail check and the write.
    const answers = await Promise.all(
      ids.map((id) => send('POST', `/users/${id}`, { email: 'target@example.com', password: 'another one 2', confirm_password: 'another one 2' })),
    );
    expectOneWinner(answers, 200);
    expect(server.stderr()).not.toMatch(/SQLITE_CONSTRAINT/);
  });
});
