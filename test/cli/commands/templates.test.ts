import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WSP, formOf, jsonBodies, page, setupApi, template, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi(NO_JOURNAL)));
afterEach(() => api?.close());

const created = (data: unknown) => JSON.stringify({ success: true, message: 'Template created successfully.', data });

describe('templates create', () => {
  it('from flags: builds the body, sends JSON, prints the record', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: `${WSP}/templates`, method: 'POST' })
      .reply(
        (opts) => (capture(opts), { statusCode: 201, data: created(template(30, { name: 'order_ready' })), responseOptions: JSON_HEADERS }),
      );
    const { code, stdout } = await api.run([
      'templates',
      'create',
      '--name',
      'order_ready',
      '--language',
      'en',
      '--category',
      'utility',
      '--body',
      'Hi {{1}}, order {{2}} is ready.',
      '--variable',
      'Ann',
      '--variable',
      '1234',
      '--footer',
      'Thanks',
      '--button',
      'URL:Track:https://shop.test/o/1',
      '--button',
      'QUICK_REPLY:Stop',
      '-q',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('30\n');
    expect(bodies).toEqual([
      {
        name: 'order_ready',
        language: 'en',
        category: 'UTILITY',
        body: { text: 'Hi {{1}}, order {{2}} is ready.', variables: ['Ann', '1234'] },
        footer: 'Thanks',
        buttons: [
          { type: 'URL', text: 'Track', url: 'https://shop.test/o/1' },
          { type: 'QUICK_REPLY', text: 'Stop' },
        ],
      },
    ]);
  });

  it('from a YAML file, with flags overriding its fields', async () => {
    const file = await api.file(
      'welcome.yaml',
      'name: welcome\nlanguage: en\ncategory: MARKETING\nbody:\n  text: "Welcome {{1}}!"\n  variables: [Ann]\nunsubscribeButton: true\n',
    );
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: `${WSP}/templates`, method: 'POST' })
      .reply((opts) => (capture(opts), { statusCode: 201, data: created(template(31)), responseOptions: JSON_HEADERS }));
    const { code } = await api.run(['templates', 'create', '--file', file, '--language', 'pt_BR']);
    expect(code).toBe(0);
    expect(bodies).toEqual([
      {
        name: 'welcome',
        language: 'pt_BR',
        category: 'MARKETING',
        body: { text: 'Welcome {{1}}!', variables: ['Ann'] },
        unsubscribeButton: true,
      },
    ]);
  });

  it('from stdin as JSON with --file -', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool
      .intercept({ path: `${WSP}/templates`, method: 'POST' })
      .reply((opts) => (capture(opts), { statusCode: 201, data: created(template(32)), responseOptions: JSON_HEADERS }));
    const stdin = JSON.stringify({
      name: 'login_code',
      language: 'en',
      category: 'AUTHENTICATION',
      codeExpirationMinutes: 10,
      copyCodeButton: true,
    });
    const { code } = await api.run(['templates', 'create', '--file', '-'], { stdin });
    expect(code).toBe(0);
    expect(bodies).toEqual([JSON.parse(stdin)]);
  });

  it('--header-file sends multipart with the file in header[media][file]', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
    const banner = await api.file('banner.png', png);
    let received: Promise<FormData> | undefined;
    api.pool.intercept({ path: `${WSP}/templates`, method: 'POST' }).reply((opts) => {
      received = formOf(opts);
      return { statusCode: 201, data: created(template(33)), responseOptions: JSON_HEADERS };
    });
    const { code } = await api.run([
      'templates',
      'create',
      '--name',
      'promo',
      '--language',
      'en',
      '--category',
      'MARKETING',
      '--body',
      'Sale now',
      '--header-file',
      banner,
      '--button',
      'PHONE_NUMBER:Call:+14155550123',
    ]);
    expect(code).toBe(0);
    const form = await received!;
    const names = [...form.keys()];
    expect(names).toEqual([
      'name',
      'language',
      'category',
      'header[type]',
      'header[media][type]',
      'header[media][file]',
      'body[text]',
      'buttons[0][type]',
      'buttons[0][text]',
      'buttons[0][phone_number]',
    ]);
    expect(form.get('header[media][type]')).toBe('image');
    const file = form.get('header[media][file]') as File;
    expect(file.name).toBe('banner.png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });

  it('a template that breaks the rules is exit 2 with every field error, nothing sent', async () => {
    const { code, stderr } = await api.run([
      'templates',
      'create',
      '--name',
      'Bad-Name',
      '--language',
      'english',
      '--category',
      'UTILITY',
      '--body',
      'Hi {{1}} and {{3}}',
      '--footer',
      'Bye 👋',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: the template is invalid: nothing was sent\n' +
        '  name: The name field must contain only lowercase letters and underscores.\n' +
        '  language: The language field must be a language code such as en or pt_BR.\n' +
        '  footer: The footer field must not contain emojis.\n' +
        '  body.text: Placeholders must be numbered {{1}}, {{2}}, ... in order without gaps.\n' +
        '  body.variables: The variables field must have one example per placeholder (2).\n',
    );
  });

  it('usage mistakes are exit 2: no template at all, a malformed --button, a header type without a file', async () => {
    expect((await api.run(['templates', 'create'])).stderr).toMatch(/^error: give the template with --file/);
    const button = await api.run(['templates', 'create', '--name', 'x', '--button', 'LINK:Go']);
    expect(button.code).toBe(2);
    expect(button.stderr).toMatch(/^error: --button takes TYPE:text\[:value\]/);
    const type = await api.run(['templates', 'create', '--name', 'x', '--header-type', 'image']);
    expect(type.code).toBe(2);
    expect(type.stderr).toBe('error: --header-type goes with --header-file\n');
  });

  it('a 422 from the server is exit 5 with its field lines', async () => {
    api.pool
      .intercept({ path: `${WSP}/templates`, method: 'POST' })
      .reply(422, { message: 'Validation error', errors: { name: ['The name has already been taken.'] } }, JSON_HEADERS);
    const { code, stderr } = await api.run([
      'templates',
      'create',
      '--name',
      'dup',
      '--language',
      'en',
      '--category',
      'UTILITY',
      '--body',
      'Hello',
    ]);
    expect(code).toBe(5);
    expect(stderr).toContain('\n  name: The name has already been taken.\n');
  });
});

describe('templates validate (offline)', () => {
  it('a valid file prints "valid", exit 0, with no network at all', async () => {
    const file = await api.file('ok.json', JSON.stringify({ name: 'ok', language: 'en', category: 'UTILITY', body: { text: 'Hello' } }));
    const { code, stdout, stderr } = await api.run(['templates', 'validate', file], {
      env: { WSM_TOKEN: undefined, WSM_BASE_URL: undefined },
    });
    expect(code).toBe(0);
    expect(stdout).toBe('valid\n');
    expect(stderr).toBe('');
  });

  it('an invalid file is exit 2 listing the field errors', async () => {
    const file = await api.file(
      'bad.yaml',
      'name: auth_code\nlanguage: en\ncategory: AUTHENTICATION\nbody:\n  text: Your code\ncodeExpirationMinutes: 2000\n',
    );
    const { code, stdout, stderr } = await api.run(['templates', 'validate', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: ${file} is not a valid template\n` +
        '  codeExpirationMinutes: The codeExpirationMinutes field must not be greater than 1440.\n' +
        '  body: The body field must not be sent for AUTHENTICATION templates.\n',
    );
  });

  it("warns where the provider's review would reject what the API accepts; --strict makes that exit 1", async () => {
    const file = await api.file(
      'sale.yaml',
      'name: sale\nlanguage: en\ncategory: MARKETING\nbody:\n  text: "{{1}} sale today"\n  variables: [Big]\n',
    );
    const env = { WSM_TOKEN: undefined, WSM_BASE_URL: undefined };
    const warned = await api.run(['templates', 'validate', file], { env });
    expect(warned).toMatchObject({
      code: 0,
      stdout: "valid for the API, but the provider's review would reject it (1 warning)\n",
      stderr:
        "warning: body.text: the body starts with a placeholder: the review wants words before it (the provider's review rejects it: INVALID_FORMAT)\n",
    });
    const strict = await api.run(['templates', 'validate', file, '--strict'], { env });
    // A local validation failure, as docs/output.md's exit table says: 2, not 1 (unexpected failure).
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`error: the provider's review would reject ${file} (--strict)\n`);
    const json = await api.run(['templates', 'validate', file, '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({
      file,
      valid: true,
      review: [
        { field: 'body.text', reason: 'INVALID_FORMAT', message: 'the body starts with a placeholder: the review wants words before it' },
      ],
    });
  });

  it('every rule of the review the simulated provider decides with: an end, two side by side, a code valid too long', async () => {
    const cases: Array<[string, string]> = [
      [
        'name: a\nlanguage: en\ncategory: UTILITY\nbody: { text: "Your code is {{1}}", variables: ["1"] }\n',
        'the body ends with a placeholder',
      ],
      [
        'name: b\nlanguage: en\ncategory: UTILITY\nbody: { text: "Hi {{1}} {{2}} there", variables: ["a", "b"] }\n',
        'two placeholders stand side by side',
      ],
      [
        'name: c\nlanguage: en\ncategory: AUTHENTICATION\ncodeExpirationMinutes: 120\n',
        'codeExpirationMinutes: a code valid for 120 minutes: the provider allows at most 90',
      ],
    ];
    for (const [yaml, warning] of cases) {
      const { code, stderr } = await api.run(['templates', 'validate', await api.file('t.yaml', yaml), '--strict']);
      expect(code, yaml).toBe(2);
      expect(stderr, yaml).toContain(warning);
    }
    const fine = await api.run([
      'templates',
      'validate',
      await api.file('ok.yaml', 'name: d\nlanguage: en\ncategory: UTILITY\nbody: { text: "Hi {{1}}, thanks", variables: ["Ann"] }\n'),
      '--strict',
    ]);
    expect(fine).toMatchObject({ code: 0, stdout: 'valid\n', stderr: '' });
  });

  it('a missing file or one that is not a template object is exit 2', async () => {
    expect((await api.run(['templates', 'validate', '/nonexistent.yaml'])).stderr).toBe('error: cannot read /nonexistent.yaml (ENOENT)\n');
    const list = await api.file('list.yaml', '- a\n- b\n');
    const result = await api.run(['templates', 'validate', list]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('must hold one template object');
    const broken = await api.file('broken.json', '{"name": ');
    expect((await api.run(['templates', 'validate', broken])).stderr).toMatch(/is neither valid JSON nor valid YAML/);
  });
});

describe('templates list / get / delete', () => {
  it('list passes the filters and prints status and reason', async () => {
    api.pool
      .intercept({ path: `${WSP}/templates?status=REJECTED&category=MARKETING`, method: 'GET' })
      .reply(
        200,
        page([template(4, { name: 'promo_x', category: 'MARKETING', status: 'REJECTED', rejection_reason: 'PROMOTIONAL' })]),
        JSON_HEADERS,
      );
    const { code, stdout } = await api.run(['templates', 'list', '--status', 'rejected', '--category', 'marketing']);
    expect(code).toBe(0);
    expect(stdout).toBe('4\tpromo_x\ten\tMARKETING\tREJECTED\tPROMOTIONAL\n');
  });

  it('list on a backend without it is "not supported", exit 1', async () => {
    api.pool.intercept({ path: `${WSP}/templates`, method: 'GET' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'list']);
    expect(code).toBe(1);
    expect(stderr).toBe('error: this server does not support listing templates: read each with `wsm templates get <id>`\n');
  });

  it('get prints the template; a missing one is exit 4', async () => {
    api.pool.intercept({ path: `${WSP}/templates/4`, method: 'GET' }).reply(200, { success: true, data: template(4) }, JSON_HEADERS);
    const { stdout } = await api.run(['templates', 'get', '4', '-o', 'ndjson']);
    expect(JSON.parse(stdout)).toEqual(template(4));
    api.pool
      .intercept({ path: `${WSP}/templates/5`, method: 'GET' })
      .reply(404, { success: false, message: 'Template not found.', status: 404 }, JSON_HEADERS);
    const missing = await api.run(['templates', 'get', '5']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe('error: template 5 not found\n');
  });

  it('get -o csv holds the raw body and the buttons as data; the terminal view keeps its decoration (finding 16)', async () => {
    const tpl = template(4, {
      components: {
        header: null,
        body: { text: 'Sale ends {{1}}', variables: ['Monday'] },
        footer: null,
        buttons: [{ type: 'URL', text: 'Shop', url: 'https://example.com' }],
      },
    });
    api.pool
      .intercept({ path: `${WSP}/templates/4`, method: 'GET' })
      .reply(200, { success: true, data: tpl }, JSON_HEADERS)
      .times(2);
    const csv = await api.run(['templates', 'get', '4', '-o', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(
      'id,name,language,category,status,rejection_reason,provider_id,components.header,components.body,components.footer,components.buttons,options,created_at,updated_at\n' +
        '4,tpl_4,en,UTILITY,PENDING,,prov-4,,Sale ends {{1}},,"[{""type"":""URL"",""text"":""Shop"",""url"":""https://example.com""}]",{},2025-03-01T10:00:00.000Z,2025-03-01T10:00:00.000Z\n',
    );
    const shown = await api.run(['templates', 'get', '4', '--no-color'], { stdoutTTY: true });
    expect(shown.stdout).toMatch(/Body +Sale ends \{\{1\}\}\n +\(examples: Monday\)\n/);
    expect(shown.stdout).toMatch(/Buttons +URL: Shop -> https:\/\/example\.com\n/);
  });

  it('delete: 403 is exit 3', async () => {
    api.pool
      .intercept({ path: `${WSP}/templates/4`, method: 'DELETE' })
      .reply(403, { message: 'This action is unauthorized.', status: 403 }, JSON_HEADERS);
    const { code, stderr } = await api.run(['templates', 'delete', '4', '--yes']);
    expect(code).toBe(3);
    expect(stderr).toBe('error: your role may not delete templates\n');
  });
});
