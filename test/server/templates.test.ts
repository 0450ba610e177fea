import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { templateRecord } from '../../src/api/schemas/index.js';
import { PDF, PNG, createTemplate, mediaTemplateFields, multipart, templatesUrl, utility } from './template-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const post = (payload: unknown, token?: string | null) =>
  h.call({ method: 'POST', url: templatesUrl(h), payload: payload as object, token });

describe('POST /templates', () => {
  it('creates a PENDING template with a text header and buttons, in the exact envelope', async () => {
    const res = await post({
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      header: { type: 'text', text: { content: 'Order {{1}}', variables: ['A-1'] } },
      body: { text: 'Hi {{1}}, your order {{2}} is on its way.', variables: ['Ana', 'A-1'] },
      footer: 'Reply STOP to opt out',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://example.com/track' },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+14155550123' },
        { type: 'QUICK_REPLY', text: 'Thanks' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success']);
    expect(body).toMatchObject({ success: true, message: 'Template created successfully.' });
    const template = templateRecord.parse(body.data);
    expect(template).toMatchObject({
      workspace_id: h.ws,
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      status: 'PENDING',
      rejection_reason: null,
      options: {},
    });
    expect(template.provider_id).toMatch(/\S+/);
    expect(template.components.header).toEqual({ type: 'text', text: { content: 'Order {{1}}', variables: ['A-1'] } });
    expect(template.components.footer).toBe('Reply STOP to opt out');
    expect(template.components.buttons).toHaveLength(3);
    expect(template.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('creates a media header from multipart bracket names and keeps only the provider handle', async () => {
    const form = multipart(mediaTemplateFields('spring_sale'), [
      { name: 'header[media][file]', filename: 'a.png', type: 'image/png', bytes: PNG },
    ]);
    const res = await h.call({ method: 'POST', url: templatesUrl(h), ...form });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data.components.header.type).toBe('media');
    expect(data.components.header.media).toEqual({ type: 'image', handle: expect.any(String) });
    expect(data.components.body).toEqual({ text: 'Our spring sale starts now, {{1}}!', variables: ['Ana'] });
    expect(data.components.buttons).toEqual([{ type: 'QUICK_REPLY', text: 'Stop promotions' }]);
    expect(data.options).toEqual({ unsubscribeButton: true });
  });

  it('judges the media file by its bytes, not its declared type or name', async () => {
    const form = multipart(mediaTemplateFields('fake_png'), [
      { name: 'header[media][file]', filename: 'a.png', type: 'image/png', bytes: PDF },
    ]);
    const res = await h.call({ method: 'POST', url: templatesUrl(h), ...form });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Validation error',
      errors: { 'header.media.file': ['The header media file must be a file of type: jpeg, png.'] },
    });

    const pdf = multipart(mediaTemplateFields('a_document', 'document'), [
      { name: 'header[media][file]', filename: 'x.bin', type: 'application/octet-stream', bytes: PDF },
    ]);
    expect((await h.call({ method: 'POST', url: templatesUrl(h), ...pdf })).statusCode).toBe(201);
  });

  it('needs the media file itself (a JSON media header is a 422)', async () => {
    const res = await post({ ...utility('no_file'), header: { type: 'media', media: { type: 'image' } } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['header.media.file']);
  });

  it('answers 413 for an image over 5 MB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const form = multipart(mediaTemplateFields('too_big'), [
      { name: 'header[media][file]', filename: 'a.png', type: 'image/png', bytes: big },
    ]);
    const res = await h.call({ method: 'POST', url: templatesUrl(h), ...form });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Payload too large.', status: 413 });
  });

  const auth = { name: 'login_code', language: 'en', category: 'AUTHENTICATION' };
  const marketing = { name: 'promo', language: 'en', category: 'MARKETING', body: { text: 'Sale today only' } };
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['name pattern', { ...utility('Bad-Name') }, 'name'],
    ['name missing', { language: 'en', category: 'UTILITY', body: { text: 'x' } }, 'name'],
    ['language', { ...utility('lang'), language: 'english' }, 'language'],
    ['category', { ...utility('cat'), category: 'PROMO' }, 'category'],
    ['body missing', { name: 'nobody', language: 'en', category: 'UTILITY' }, 'body'],
    ['body over 1024', utility('long', 'x'.repeat(1025), null), 'body.text'],
    ['placeholder gap', utility('gap', 'Hi {{1}} and {{3}}', ['a', 'b']), 'body.text'],
    ['variables count', utility('vars', 'Hi {{1}} and {{2}} ok', ['a']), 'body.variables'],
    ['variables missing', utility('novars', 'Hi {{1}} ok', null), 'body.variables'],
    [
      'header placeholders',
      { ...utility('hdr'), header: { type: 'text', text: { content: '{{1}} {{2}}', variables: ['a', 'b'] } } },
      'header.text.content',
    ],
    ['footer over 60', { ...utility('foot'), footer: 'f'.repeat(61) }, 'footer'],
    ['footer emoji', { ...utility('emoji'), footer: 'Thanks 🎉' }, 'footer'],
    ['4 buttons', { ...utility('btns'), buttons: Array.from({ length: 4 }, () => ({ type: 'QUICK_REPLY', text: 'ok' })) }, 'buttons'],
    ['bad URL', { ...utility('url'), buttons: [{ type: 'URL', text: 'Go', url: 'ftp://example.com' }] }, 'buttons.0.url'],
    [
      'bad phone',
      { ...utility('phone'), buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '4155550123' }] },
      'buttons.0.phone_number',
    ],
    ['button text over 25', { ...utility('btxt'), buttons: [{ type: 'QUICK_REPLY', text: 'b'.repeat(26) }] }, 'buttons.0.text'],
    ['unsubscribeButton outside MARKETING', { ...utility('unsub'), unsubscribeButton: true }, 'unsubscribeButton'],
    ['blockButton outside MARKETING', { ...utility('block'), blockButton: false }, 'blockButton'],
    ['codeExpirationMinutes outside AUTHENTICATION', { ...marketing, codeExpirationMinutes: 10 }, 'codeExpirationMinutes'],
    ['copyCodeButton outside AUTHENTICATION', { ...marketing, copyCodeButton: true }, 'copyCodeButton'],
    ['AUTHENTICATION with a body', { ...auth, body: { text: 'Your code' } }, 'body'],
    ['AUTHENTICATION with buttons', { ...auth, buttons: [{ type: 'QUICK_REPLY', text: 'ok' }] }, 'buttons'],
    ['codeExpirationMinutes 0', { ...auth, codeExpirationMinutes: 0 }, 'codeExpirationMinutes'],
    ['codeExpirationMinutes 1441', { ...auth, codeExpirationMinutes: 1441 }, 'codeExpirationMinutes'],
    ['codeExpirationMinutes not an integer', { ...auth, codeExpirationMinutes: 1.5 }, 'codeExpirationMinutes'],
  ];
  it.each(cases)('answers 422 for %s', async (_, body, field) => {
    const res = await post(body);
    expect(res.statusCode).toBe(422);
    const json = res.json();
    expect(json.message).toBe('Validation error');
    expect(Object.keys(json.errors)).toContain(field);
    expect(json.errors[field][0]).toEqual(expect.any(String));
  });

  it('accepts the limits themselves', async () => {
    expect(
      (await post({ ...auth, name: 'code_a', codeExpirationMinutes: 1, copyCodeButton: true, addSecurityRecommendation: true })).statusCode,
    ).toBe(201);
    expect((await post({ ...auth, name: 'code_b', codeExpirationMinutes: 1440 })).statusCode).toBe(201);
    expect((await post({ ...utility('max_body', 'x'.repeat(1024), null), footer: 'f'.repeat(60) })).statusCode).toBe(201);
  });

  it('keeps names unique per workspace and language', async () => {
    expect((await post(utility('greeting'))).statusCode).toBe(201);
    const clash = await post(utility('greeting'));
    expect(clash.statusCode).toBe(422);
    expect(clash.json()).toEqual({ message: 'Validation error', errors: { name: ['The name has already been taken for this language.'] } });
    expect((await post({ ...utility('greeting'), language: 'pt_BR' })).statusCode).toBe(201);
  });

  it('answers a body that is neither JSON nor a form with a 422', async () => {
    const res = await h.call({ method: 'POST', url: templatesUrl(h), payload: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBe(422);
  });
});

describe('GET /templates and /templates/{id}, DELETE', () => {
  it('gets one in {success, data}', async () => {
    const made = await createTemplate(h, utility('get_me'));
    const res = await h.call({ method: 'GET', url: templatesUrl(h, `/${made.id}`) });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'success']);
    expect(res.json().success).toBe(true);
    expect(templateRecord.parse(res.json().data)).toMatchObject({ id: made.id, name: 'get_me' });
  });

  it('lists with pagination and filters status, category and search', async () => {
    // Templates of its own, so that the page holds whatever the other tests ran before it.
    for (const name of ['list_one', 'list_two', 'list_three']) await createTemplate(h, utility(name));
    await createTemplate(h, { name: 'list_auth', language: 'en', category: 'AUTHENTICATION' });
    const all = (await h.call({ method: 'GET', url: templatesUrl(h, '?per_page=2') })).json();
    expect(all.data).toHaveLength(2);
    expect(all.meta).toMatchObject({ current_page: 1, per_page: 2, from: 1, to: 2 });
    expect(all.meta.total).toBeGreaterThan(3);
    expect(all.links.next).toContain('page=2');
    const ids = all.data.map((t: { id: number }) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const auth = (await h.call({ method: 'GET', url: templatesUrl(h, '?category=AUTHENTICATION&per_page=100') })).json();
    expect(auth.data.length).toBe(auth.meta.total);
    expect(auth.data.every((t: { category: string }) => t.category === 'AUTHENTICATION')).toBe(true);

    const search = (await h.call({ method: 'GET', url: templatesUrl(h, '?search=LIST_A') })).json();
    expect(search.data.map((t: { name: string }) => t.name)).toEqual(['list_auth']);
    expect(search.meta).toMatchObject({ total: 1, last_page: 1, from: 1, to: 1 });

    const none = (await h.call({ method: 'GET', url: templatesUrl(h, '?status=APPROVED') })).json();
    expect(none).toMatchObject({ data: [], meta: { total: 0, last_page: 1, from: null, to: null } });

    expect((await h.call({ method: 'GET', url: templatesUrl(h, '?per_page=0') })).statusCode).toBe(422);
    expect((await h.call({ method: 'GET', url: templatesUrl(h, '?category=OTHER') })).statusCode).toBe(422);
  });

  it('an empty filter is no filter: the rows and the total agree', async () => {
    for (const name of ['empty_filter_one', 'empty_filter_two']) await createTemplate(h, utility(name));
    const total = (await h.call({ method: 'GET', url: templatesUrl(h, '?per_page=100') })).json().meta.total;
    expect(total).toBeGreaterThan(1);
    for (const query of ['status=', 'search=', 'status=&search=']) {
      const page = (await h.call({ method: 'GET', url: templatesUrl(h, `?${query}&per_page=1`) })).json();
      expect({ query, rows: page.data.length, total: page.meta.total, last: page.meta.last_page }).toEqual({
        query,
        rows: 1,
        total,
        last: total,
      });
    }
  });

  it('deletes at once, owes the provider a deletion, and then answers the template 404', async () => {
    const made = await createTemplate(h, utility('delete_me'));
    const res = await h.call({ method: 'DELETE', url: templatesUrl(h, `/${made.id}`) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Template deleted successfully.' });
    const owed = h.db
      .prepare('SELECT workspace_id, provider_id, attempts FROM provider_outbox WHERE provider_id = ?')
      .all(made.provider_id);
    expect(owed).toEqual([{ workspace_id: h.ws, provider_id: made.provider_id, attempts: 0 }]);
    const again = await h.call({ method: 'GET', url: templatesUrl(h, `/${made.id}`) });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ success: false, message: 'Template not found.', status: 404 });
    expect((await h.call({ method: 'DELETE', url: templatesUrl(h, `/${made.id}`) })).json()).toEqual({
      success: false,
      message: 'Template not found.',
      status: 404,
    });
  });
});

describe('authentication, tenancy and permissions', () => {
  const endpoints: Array<{ method: 'GET' | 'POST' | 'DELETE'; suffix: string; permission: string; payload?: object }> = [
    { method: 'GET', suffix: '', permission: 'templates.view' },
    { method: 'POST', suffix: '', permission: 'templates.create', payload: utility('perm_check') },
    { method: 'GET', suffix: '/1', permission: 'templates.view' },
    { method: 'DELETE', suffix: '/1', permission: 'templates.delete' },
    { method: 'POST', suffix: '/sync', permission: 'templates.sync' },
  ];

  it.each(endpoints)(
    '$method $suffix: 401 without a token, 404 outside the workspace, 403 without $permission',
    async ({ method, suffix, permission, payload }) => {
      const url = templatesUrl(h, suffix);
      const anonymous = await h.call({ method, url, payload, token: null });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
      const outsider = await h.call({ method, url, payload, token: await h.outsider() });
      expect(outsider.statusCode).toBe(404);
      expect(outsider.json()).toEqual({ message: 'Resource not found.', status: 404 });
      const others = ['templates.view', 'templates.create', 'templates.delete', 'templates.sync'].filter((p) => p !== permission);
      const denied = await h.call({ method, url, payload, token: await h.memberWith(others) });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ message: 'This action is unauthorized.', status: 403 });
      const allowed = await h.call({ method, url, payload, token: await h.memberWith([permission]) });
      expect([200, 201, 404]).toContain(allowed.statusCode);
    },
  );

  it.each(['0', 'abc', '99999999'])('answers the template 404 for id %s', async (id) => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await h.call({ method, url: templatesUrl(h, `/${id}`) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Template not found.', status: 404 });
    }
  });
});
