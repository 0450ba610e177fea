// `--all` writes what the single pages give, joined: the same rows, the same bytes, one header or
// bracket around them all, in every format a script reads.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WSP, label, page, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

// Values a careless writer would mangle: a comma and a quote (CSV), a tab and a line break (piped
// table), a bidi control (JSON escapes it), a null.
const LABELS = [
  label(1, 'urgent', '#ff0000'),
  label(2, 'a, "quoted" one', null),
  label(3, 'tab\there', '#00ff00'),
  label(4, 'two\nlines', null),
  label(5, 'r\u202eevil', '#0000ff'),
];
const PER_PAGE = 2;
const LAST = Math.ceil(LABELS.length / PER_PAGE);

/** Serves every page of LABELS, whichever order the query gives `page` and `per_page` in. */
function serveLabels(): void {
  api.pool
    .intercept({ path: (path) => path.startsWith(`${WSP}/labels?`), method: 'GET' })
    .reply((request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      const current = Number(query.get('page') ?? 1);
      expect(Number(query.get('per_page'))).toBe(PER_PAGE);
      const rows = LABELS.slice((current - 1) * PER_PAGE, current * PER_PAGE);
      return { statusCode: 200, data: page(rows, current, LAST, PER_PAGE, LABELS.length), responseOptions: JSON_HEADERS };
    })
    .persist();
}

async function stdoutOf(argv: string[]): Promise<string> {
  const { code, stdout, stderr } = await api.run(['labels', 'list', '--per-page', String(PER_PAGE), ...argv]);
  expect(code, `${argv.join(' ')}: ${stderr}`).toBe(0);
  return stdout;
}

async function singlePages(argv: string[]): Promise<string[]> {
  const pages: string[] = [];
  for (let n = 1; n <= LAST; n++) pages.push(await stdoutOf(['--page', String(n), ...argv]));
  return pages;
}

describe('list --all', () => {
  beforeEach(serveLabels);

  it.each([[[]], [['-q']], [['-o', 'ndjson']]])('%j: the single pages, concatenated', async (argv) => {
    const all = await stdoutOf(['--all', ...argv]);
    expect(all).toBe((await singlePages(argv)).join(''));
    expect(all).not.toBe('');
  });

  it("-o csv: one header, then every page's rows", async () => {
    const pages = await singlePages(['-o', 'csv']);
    const header = pages[0].slice(0, pages[0].indexOf('\n') + 1);
    expect(header).toBe('id,name,color,created_at\n');
    expect(pages.every((p) => p.startsWith(header))).toBe(true);
    expect(await stdoutOf(['--all', '-o', 'csv'])).toBe(header + pages.map((p) => p.slice(header.length)).join(''));
  });

  it.each([[['-o', 'json']], [['--json', 'id,name']]])(
    "%j: one array holding every page's records, as JSON.stringify indents it",
    async (argv) => {
      const pages = await singlePages(argv);
      const rows = pages.flatMap((p) => JSON.parse(p) as unknown[]);
      const all = await stdoutOf(['--all', ...argv]);
      expect(all).toBe(JSON.stringify(rows, null, 2).replace(/\u202e/g, '\\u202e') + '\n');
      expect(all).toContain('"r\\u202eevil"');
    },
  );
});
