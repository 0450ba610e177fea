/**
 * People of a harness workspace for the access tests: roles, users with passwords who sign in,
 * and their updates through the API, as an administrator and its members would make them.
 */
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export const FORBIDDEN = { message: 'This action is unauthorized.', status: 403 };
export const PASSWORD = 'the first password';
export const OWNER = { id: 1, email: 'owner@wsm.local' };
export const NEW_PASSWORD = { password: 'taken over 123', confirm_password: 'taken over 123' };

export interface Person {
  id: number;
  email: string;
  token: string;
  roleId: number;
}

export function people(h: Harness) {
  const wsUrl = (suffix: string, ws = h.ws) => `/api/v3/workspaces/${ws}${suffix}`;

  async function role(
    permissions: string[],
    name = `Role ${Math.random().toString(36).slice(2, 8)}`,
    token?: string,
    ws = h.ws,
  ): Promise<number> {
    const res = await h.call({ method: 'POST', url: wsUrl('/roles', ws), payload: { name, permissions }, token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  async function login(email: string, password = PASSWORD): Promise<string> {
    const res = await h.call({ method: 'POST', url: '/api/v3/auth/tokens', token: null, payload: { email, password } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.token;
  }

  /** A user of the workspace (the seeded one unless given) with a password, a role of exactly these permissions, and a token. */
  async function user(name: string, permissions: string[], options: { token?: string; ws?: string } = {}): Promise<Person> {
    const roleId = await role(permissions, `${name} role`, options.token, options.ws);
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`;
    const res = await h.call({
      method: 'POST',
      url: wsUrl('/users', options.ws),
      token: options.token,
      payload: { name, email, password: PASSWORD, role_id: roleId },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data.id, email, token: await login(email), roleId };
  }

  /** A workspace created by the holder of `token` (POST /workspaces is open to every user). */
  async function workspaceOf(token: string, name = 'Mine'): Promise<string> {
    const res = await h.call({ method: 'POST', url: '/api/v3/workspaces', token, payload: { name } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  /** Makes an existing user a member of another workspace with a role there, as that workspace's owner would. */
  function addMember(ws: string, userId: number, roleId: number): void {
    h.db
      .prepare('INSERT INTO memberships (workspace_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)')
      .run(ws, userId, roleId, new Date().toISOString());
  }

  const updateUser = (token: string | undefined, id: number, payload: Record<string, unknown>, ws = h.ws) =>
    h.call({ method: 'POST', url: wsUrl(`/users/${id}`, ws), token, payload });
  const getUser = async (id: number, ws = h.ws, token?: string) =>
    (await h.call({ method: 'GET', url: wsUrl(`/users/${id}`, ws), token })).json().data;
  const tryLogin = async (email: string, password: string) =>
    (await h.call({ method: 'POST', url: '/api/v3/auth/tokens', token: null, payload: { email, password } })).statusCode;
  /** Status and body of a GET, for assertions on what a user sees. */
  const seen = async (url: string, token?: string) => {
    const res = await h.call({ method: 'GET', url, token });
    return { status: res.statusCode, body: res.json() };
  };

  return { wsUrl, role, login, user, workspaceOf, addMember, updateUser, getUser, tryLogin, seen };
}
