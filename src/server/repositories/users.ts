import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { User } from '../../api/schemas/index.js';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Passwords are stored as scrypt hashes: `scrypt$N$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * Checks a password against a stored hash. Without a hash to check (no such user, or a user
 * with no password) it still runs scrypt, against a throw-away hash: the answer takes as long
 * either way, so its timing does not tell which e-mails have an account.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, salt, hash] = (stored ?? '').split('$');
  if (scheme !== 'scrypt') {
    await verifyPassword(password, await throwAwayHash());
    return false;
  }
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { ...SCRYPT, N: Number(n) });
  return timingSafeEqual(expected, actual);
}

let throwAway: Promise<string> | undefined;
const throwAwayHash = () => (throwAway ??= hashPassword(randomBytes(16).toString('base64')));

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newToken = () => `wsm_${randomBytes(24).toString('base64url')}`;

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string | null;
  timezone: string;
  client: number;
  partner: number;
  partner_permissions: string | null;
  avatar_file: string | null;
  created_at: string;
  updated_at: string;
}

export function createUsersRepository(db: Db) {
  // A token past its expires_at is no token at all; the expired rows go at the next issue.
  // `+?`: asked on every request, and a bare `?` here is re-planned at each call (db.ts, "Re-planned statements").
  const byToken = db.prepare<[string, string], UserRow & { token_expires_at: string | null }>(
    'SELECT u.*, t.expires_at AS token_expires_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = +? AND (t.expires_at IS NULL OR t.expires_at > ?)',
  );
  /** The user a live token belongs to, and when the token stops being one (null: never). */
  function session(tokenHash: string): { user: UserRow; expiresAt: string | null } | undefined {
    const row = byToken.get(tokenHash, nowIso());
    if (!row) return undefined;
    const { token_expires_at: expiresAt, ...user } = row;
    return { user, expiresAt };
  }
  const byId = db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?');
  const insertUser = db.prepare(
    `INSERT INTO users (name, email, password_hash, timezone, partner, created_at, updated_at)
     VALUES (@name, @email, @password_hash, @timezone, @partner, @now, @now)`,
  );
  const insertToken = db.prepare('INSERT OR IGNORE INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)');
  const removeExpired = db.prepare('DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= ?');
  const removeToken = db.prepare('DELETE FROM tokens WHERE token_hash = ?');
  const removeTokensOf = db.prepare('DELETE FROM tokens WHERE user_id = @user AND (@keep IS NULL OR token_hash != @keep)');

  return {
    findByToken: (token: string) => session(hashToken(token))?.user,
    session,
    findById: (id: number) => byId.get(id),
    findByEmail: (email: string) => byEmail.get(email),
    insert(user: { name: string; email: string; password_hash: string | null; timezone?: string; partner?: boolean }): number {
      const info = insertUser.run({
        name: user.name,
        email: user.email,
        password_hash: user.password_hash,
        timezone: user.timezone ?? 'UTC',
        partner: user.partner ? 1 : 0,
        now: nowIso(),
      });
      return Number(info.lastInsertRowid);
    },
    /** Stores only the token's SHA-256 (decisions.md §4); `expiresAt` null: never expires. */
    addToken(userId: number, token: string, expiresAt: string | null = null): void {
      const now = nowIso();
      removeExpired.run(now);
      insertToken.run(hashToken(token), userId, now, expiresAt);
    },
    revokeToken: (tokenHash: string) => removeToken.run(tokenHash).changes > 0,
    /** Every token of the user but `keep` (the hash of the token making the change, if it is theirs). */
    revokeTokensOf: (userId: number, keep: string | null = null) => removeTokensOf.run({ user: userId, keep }).changes,
  };
}

/**
 * The public shape of a user as a member of one workspace: role and status are the membership's
 * there (decisions.md §8); never a password or hash.
 */
export function toUserRecord(
  row: UserRow,
  membership: { role: { id: number; name: string } | null; active: boolean },
  avatarUrl: string | null,
): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    status: membership.active,
    client: row.client === 1,
    avatar_url: avatarUrl,
    role: membership.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
