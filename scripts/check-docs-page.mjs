// Checks that the interactive API reference at /docs really renders in a browser:
// starts the app on 127.0.0.1 (random port, in-memory database), loads /docs in
// Debian's headless chromium, and checks both a non-trivial screenshot and that
// the rendered DOM lists the API's operations. Prints one line; exits 0 or 1.
// Needs `npm run build` first and chromium (`apt-get install -y chromium`).
//   node scripts/check-docs-page.mjs [--out docs.png]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** A blank 1280x900 page compresses to a few KB; a rendered reference is far larger. */
const MIN_PNG_BYTES = 20_000;
/** Operation summaries that must appear in the rendered page (src/server/openapi/operations.ts). */
const EXPECTED = [
  'Create a template',
  'Synchronise template statuses with the provider',
  'List contacts',
  'Workspace Messaging Management API',
];

const outIndex = process.argv.indexOf('--out');
const work = mkdtempSync(join(tmpdir(), 'wsm-docs-check-'));
const screenshot = outIndex > 0 ? process.argv[outIndex + 1] : join(work, 'docs.png');

function fail(reason) {
  console.error(`docs page check FAILED: ${reason}`);
  process.exitCode = 1;
}

/** Runs chromium without blocking this process: the server it loads lives in this event loop. */
function chromium(url, extra) {
  const profile = mkdtempSync(join(work, 'profile-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--user-data-dir=${profile}`,
    '--window-size=1280,900',
    '--virtual-time-budget=5000',
    ...extra,
    url,
  ];
  return new Promise((resolve) => {
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ error, status: null, stdout, stderr }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function main() {
  if (!existsSync(CHROMIUM)) return fail(`${CHROMIUM} not found (apt-get install -y chromium, or set CHROMIUM)`);
  const appModule = new URL('../dist/server/app.js', import.meta.url);
  if (!existsSync(appModule)) return fail('dist/ is missing: run `npm run build` first');
  const { buildApp } = await import(appModule);
  const { openDatabase } = await import(new URL('../dist/server/db.js', import.meta.url));

  const db = openDatabase(':memory:');
  const app = await buildApp({ db, uploadsDir: join(work, 'uploads'), workers: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address();
  const url = `http://127.0.0.1:${port}/docs`;
  try {
    const page = await fetch(url);
    if (page.status !== 200) return fail(`GET /docs answered ${page.status}: is docsRoutes registered in buildApp (src/server/app.ts)?`);
    const shot = await chromium(url, [`--screenshot=${screenshot}`]);
    if (shot.error) return fail(`chromium did not run: ${shot.error.message}`);
    if (!existsSync(screenshot))
      return fail(`no screenshot produced (chromium exit ${shot.status}): ${shot.stderr.trim().split('\n').pop()}`);
    const png = readFileSync(screenshot);
    if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
      return fail('the screenshot is not a PNG');
    if (png.length < MIN_PNG_BYTES) return fail(`the screenshot is only ${png.length} bytes: the page looks blank`);

    const dom = await chromium(url, ['--dump-dom']);
    const missing = EXPECTED.filter((text) => !dom.stdout.includes(text));
    if (missing.length) return fail(`the rendered page lacks: ${missing.join('; ')}`);
    const operations = (dom.stdout.match(/class="opblock opblock-/g) ?? []).length;
    console.log(`docs page OK: ${url} rendered ${operations} operations; screenshot ${statSync(screenshot).size} bytes at ${screenshot}`);
  } finally {
    await app.close();
    db.close();
    // Keep the screenshot for a human to look at; drop the browser profiles.
    for (const entry of readdirSync(work))
      if (entry.startsWith('profile-') || entry === 'uploads') rmSync(join(work, entry), { recursive: true, force: true });
  }
}

await main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
