// A template file is strict. A key a template does not have fails validate,
// validate --strict and create --file (exit 2, nothing sent) with the key, its line and the key it
// may mean, at any depth, as workspace files do. No interceptor is set: a request would fail otherwise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const MISSPELT = 'name: order_ready\nlanguage: en\ncategory: UTILITY\nbody:\n  text: "Your order is ready."\nfootr: "Reply STOP"\n';

describe('a template file with a key templates do not have', () => {
  it.each([
    ['templates validate', (file: string) => ['templates', 'validate', file]],
    ['templates validate --strict', (file: string) => ['templates', 'validate', '--strict', file]],
    ['templates create --file', (file: string) => ['templates', 'create', '--file', file]],
  ])('%s: exit 2 naming the key, its line and "did you mean", nothing sent', async (_name, argv) => {
    const file = await api.file('order.yaml', MISSPELT);
    const { code, stdout, stderr } = await api.run(argv(file));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: ${file} is not a valid template file: nothing was sent\n  footr (line 6): "footr" is not a known field (did you mean "footer"?).\n`,
    );
  });

  it('a nested key and a button key too, every one at once; JSON files alike', async () => {
    const file = await api.file(
      'promo.json',
      JSON.stringify(
        {
          name: 'promo',
          language: 'en',
          category: 'MARKETING',
          body: { txt: 'Hi' },
          buttons: [{ type: 'URL', text: 'Go', ulr: 'https://x.test' }],
        },
        null,
        2,
      ),
    );
    const { code, stderr } = await api.run(['templates', 'validate', file, '-o', 'json']);
    expect(code).toBe(2);
    expect(stderr.split('\n')).toEqual([
      `error: ${file} is not a valid template file: nothing was sent`,
      '  body.txt (line 6): "txt" is not a known field (did you mean "text"?).',
      '  buttons.0.ulr (line 12): "ulr" is not a known field (did you mean "url"?).',
      '',
    ]);
  });

  it('every key a template has is accepted (a file with all of them is valid)', async () => {
    const file = await api.file(
      'full.yaml',
      [
        'name: full_marketing',
        'language: en',
        'category: MARKETING',
        'header: { type: text, text: { content: "Hello {{1}}", variables: [Ann] } }',
        'body: { text: "Our sale starts {{1}}.", variables: [Monday] }',
        'footer: Thanks',
        'buttons:',
        '  - { type: URL, text: Shop, url: "https://shop.test" }',
        '  - { type: PHONE_NUMBER, text: Call, phone_number: "+14155550123" }',
        '  - { type: QUICK_REPLY, text: Stop }',
        'unsubscribeButton: false',
        'blockButton: false',
        '',
      ].join('\n'),
    );
    expect(await api.run(['templates', 'validate', file])).toMatchObject({ code: 0, stdout: 'valid\n' });
  });
});

describe('docs/template-file.md', () => {
  it('shows one valid example per category, in YAML and JSON', async () => {
    const page = readFileSync(join(import.meta.dirname, '../../../docs/template-file.md'), 'utf8');
    const examples = [...page.matchAll(/```(yaml|json)\n([\s\S]*?)```/g)].map((m) => ({ format: m[1], text: m[2] }));
    const categories: string[] = [];
    for (const [i, { format, text }] of examples.entries()) {
      const file = await api.file(`example-${i}.${format}`, text);
      const { code, stdout, stderr } = await api.run(['templates', 'validate', file, '-o', 'json']);
      expect({ code, stderr }, text).toMatchObject({ code: 0 });
      expect(JSON.parse(stdout).valid).toBe(true);
      categories.push(/category"?:\s*"?([A-Z]+)/.exec(text)![1]);
    }
    expect(categories.sort()).toEqual(['AUTHENTICATION', 'MARKETING', 'UTILITY']);
    expect(new Set(examples.map((e) => e.format))).toEqual(new Set(['yaml', 'json']));
  });
});
