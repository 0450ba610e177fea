/**
 * POST /auth/tokens against password guessing (decisions.md §7): attempts
 * are limited per e-mail and per client address (429 with Retry-After), and an unknown e-mail
 * costs the same scrypt work as a wrong password, so the answer time does not tell which
 * e-mails have an account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const PASSWORD = 'a long password';

async function withUser(options: Parameters<typeof createHarness>[0] = {}) {
  h = await createHarness(options);
  const role = (await h.create(`/api/v3/workspaces/${h.ws}/roles`, { name: 'R', permissions: ['contacts.view'] })).id;
  await h.create(`/api/v3/workspaces/${h.ws}/users`, { name: 'Ann', email: 'ann@example.com', password: PASSWORD, role_id: role });
}

const attempt = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  h.app.inject({ method: 'POST', url: '/api/v3/auth/tokens', payload: { email, password }, remoteAddress });

describe('rate limits', () => {
  it('per e-mail: beyond the limit, 429 with Retry-After, even with the right password; other e-mails go on', async () => {
    await withUser({ loginLimits: { perEmail: 3, perAddress: 100, windowMs: 60_000 } });
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
      expect((await attempt('ann@example.com', 'wrong guess', address)).statusCode).toBe(422);
    // From yet another address, and in another case: the e-mail is the key.
    const limited = await attempt('ANN@example.com', PASSWORD, '10.0.0.4');
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({ message: `Too many sign-in attempts: try again in ${retryAfter} seconds.`, status: 429 });
    expect((await attempt('bob@example.com', 'whatever', '10.0.0.4')).statusCode).toBe(422);
  });

  it('per client address: beyond the limit, 429 whatever the e-mail; other addresses go on', async () => {
    await withUser({ loginLimits: { perEmail: 100, perAddress: 4, windowMs: 60_000 } });
    for (let i = 0; i < 4; i++) expect((await attempt(`guess${i}@example.com`, 'x', '192.0.2.7')).statusCode).toBe(422);
    const limited = await attempt('ann@example.com', PASSWORD, '192.0.2.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Even a body that is not valid counts against the address, and is refused first.
    expect((await attempt('not an e-mail', '', '192.0.2.7')).statusCode).toBe(429);
    expect((await attempt('ann@example.com', PASSWORD, '192.0.2.8')).statusCode).toBe(201);
  });

  it('has limits by default: the 11th attempt on one e-mail is refused', async () => {
    await withUser();
    for (let i = 0; i < 10; i++) expect((await attempt('ann@example.com', `guess ${i}`, `198.51.100.${i}`)).statusCode).toBe(422);
    expect((await attempt('ann@example.com', PASSWORD, '198.51.100.99')).statusCode).toBe(429);
  });
});

describe('no timing oracle', () => {
  it('an unknown e-mail takes about as long as a wrong password (both run scrypt)', async () => {
    await withUser({ loginLimits: { perEmail: 1000, perAddress: 1000, windowMs: 60_000 } });
    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      const res = await attempt(email, 'not the password');
      expect(res.statusCode).toBe(422);
      return Number(process.hrtime.bigint() - started);
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so that load on the machine weighs on both alike.
    for (let i = 0; i < 7; i++) {
      known.push(await time('ann@example.com'));
      unknown.push(await time(`nobody${i}@example.com`));
    }
    // Without the dummy scrypt an unknown e-mail answers ~50x faster; with it, about the same.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.4);
  });
});
