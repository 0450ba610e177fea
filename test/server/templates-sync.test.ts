import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { ProviderError, type TemplateProvider } from '../../src/server/provider/provider.js';
import { createTemplate, simulated, templatesUrl, utility } from './template-fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const sync = () => h.call({ method: 'POST', url: templatesUrl(h, '/sync') });
const statusOf = async (id: number) => {
  const { data } = (await h.call({ method: 'GET', url: templatesUrl(h, `/${id}`) })).json();
  return { status: data.status, rejection_reason: data.rejection_reason };
};

describe('POST /templates/sync with the simulated provider', () => {
  it('answers 404 {success: false, message, status} when nothing is pending', async () => {
    h = await createHarness();
    const res = await sync();
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'No pending templates to synchronise.', status: 404 });
  });

  it('applies the review once the delay has passed: approvals and rejections with their reason', async () => {
    h = await createHarness();
    const ok = await createTemplate(h, utility('welcome_message', 'Hello {{1}}, welcome aboard.', ['Ana']));
    const named = await createTemplate(h, utility('please_reject_me', 'A plain message.', null));
    const leading = await createTemplate(h, utility('leading_var', '{{1}} is your code holder.', ['Ana']));
    const trailing = await createTemplate(h, utility('trailing_var', 'Your code is {{1}}', ['123']));
    const adjacent = await createTemplate(h, utility('adjacent_vars', 'Hello {{1}} {{2}} and welcome.', ['a', 'b']));
    const longOtp = await createTemplate(h, { name: 'long_otp', language: 'en', category: 'AUTHENTICATION', codeExpirationMinutes: 120 });
    const shortOtp = await createTemplate(h, { name: 'short_otp', language: 'en', category: 'AUTHENTICATION', codeExpirationMinutes: 10 });

    simulated(h).setApprovalDelay(0);
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Templates synchronised: 2 approved, 5 rejected, 0 still pending.' });

    expect(await statusOf(ok.id)).toEqual({ status: 'APPROVED', rejection_reason: null });
    expect(await statusOf(shortOtp.id)).toEqual({ status: 'APPROVED', rejection_reason: null });
    expect(await statusOf(named.id)).toEqual({ status: 'REJECTED', rejection_reason: 'PROMOTIONAL' });
    for (const t of [leading, trailing, adjacent, longOtp]) {
      expect(await statusOf(t.id)).toEqual({ status: 'REJECTED', rejection_reason: 'INVALID_FORMAT' });
    }
    // Nothing is pending any more: the next sync is the documented 404.
    expect((await sync()).statusCode).toBe(404);
  });

  it('leaves templates PENDING while the review delay has not passed', async () => {
    h = await createHarness();
    const t = await createTemplate(h, utility('slow_review'));
    simulated(h).setApprovalDelay(60_000);
    const res = await sync();
    expect(res.json()).toEqual({ success: true, message: 'Templates synchronised: 0 approved, 0 rejected, 1 still pending.' });
    expect(await statusOf(t.id)).toEqual({ status: 'PENDING', rejection_reason: null });
  });

  it.each([
    ['unavailable', 'template provider unavailable'],
    ['credentials', 'invalid channel credentials'],
    ['timeout', 'template provider timed out'],
  ] as const)('answers 500 naming the cause when the provider fails (%s) and changes nothing', async (fault, cause) => {
    h = await createHarness();
    const t = await createTemplate(h, utility('during_outage'));
    const provider = simulated(h);
    provider.setApprovalDelay(0);
    provider.setFault(fault);
    const res = await sync();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: `Template sync failed: ${cause}.`, status: 500 });
    expect(await statusOf(t.id)).toEqual({ status: 'PENDING', rejection_reason: null });
    // Healed, the same sync goes through.
    provider.setFault(undefined);
    expect((await sync()).json().message).toBe('Templates synchronised: 1 approved, 0 rejected, 0 still pending.');
  });

  it('touches only PENDING templates', async () => {
    h = await createHarness();
    const paused = await createTemplate(h, utility('already_paused'));
    const pending = await createTemplate(h, utility('still_pending'));
    h.db.prepare("UPDATE templates SET status = 'PAUSED' WHERE id = ?").run(paused.id);
    simulated(h).setApprovalDelay(0);
    expect((await sync()).json().message).toBe('Templates synchronised: 1 approved, 0 rejected, 0 still pending.');
    expect(await statusOf(paused.id)).toEqual({ status: 'PAUSED', rejection_reason: null });
    expect(await statusOf(pending.id)).toEqual({ status: 'APPROVED', rejection_reason: null });
  });

  it('keeps its submissions across a restart (the state is in the database)', async () => {
    h = await createHarness();
    const t = await createTemplate(h, utility('survives_restart'));
    const { createSimulatedProvider } = await import('../../src/server/provider/simulated.js');
    // A second provider over the same database sees what the first was sent.
    const reborn = createSimulatedProvider(h.db, { approvalDelayMs: 0 });
    expect(await reborn.list(h.ws)).toEqual([{ providerId: t.provider_id, status: 'APPROVED', reason: null }]);
  });
});

describe('POST /templates/sync and create with other providers', () => {
  const fake = (overrides: Partial<TemplateProvider>): TemplateProvider => ({
    submit: async () => ({ providerId: `p-${Math.random()}` }),
    list: async () => [],
    delete: async () => undefined,
    uploadMedia: async () => ({ handle: 'h' }),
    ...overrides,
  });

  it('stores any other final status the provider reports', async () => {
    let ids: string[] = [];
    h = await createHarness({
      provider: fake({ list: async () => ids.map((providerId) => ({ providerId, status: 'PAUSED', reason: null })) }),
    });
    const t = await createTemplate(h, utility('gets_paused'));
    ids = [t.provider_id];
    expect((await sync()).json().message).toBe('Templates synchronised: 0 approved, 0 rejected, 1 with another status, 0 still pending.');
    expect(await statusOf(t.id)).toEqual({ status: 'PAUSED', rejection_reason: null });
  });

  it('never sends the text of an unexpected provider error', async () => {
    h = await createHarness({
      provider: fake({
        list: async () => {
          throw new Error('ECONNRESET at /secret/path.js:12');
        },
      }),
    });
    await createTemplate(h, utility('hidden_error'));
    const res = await sync();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      message: 'Template sync failed: the template provider returned an unexpected error.',
      status: 500,
    });
  });

  it('answers 500 naming the cause and stores nothing when submission fails', async () => {
    h = await createHarness({
      provider: fake({
        submit: async () => {
          throw new ProviderError('credentials');
        },
      }),
    });
    const res = await h.call({ method: 'POST', url: templatesUrl(h), payload: utility('not_submitted') });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'Template could not be submitted: invalid channel credentials.', status: 500 });
    const list = (await h.call({ method: 'GET', url: templatesUrl(h) })).json();
    expect(list.meta.total).toBe(0);
  });
});
