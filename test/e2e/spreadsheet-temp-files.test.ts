/**
 * Nothing of a sheet is left behind: `wsm contacts import FILE.xlsx` reads the sheet into rows and
 * sends the CSV they make from a file that no other process can find and that no end of the
 * process leaves on disk. The real binary, with a temporary folder of its own: interrupted by
 * Ctrl-C (SIGINT) or killed (SIGKILL) while the sheet's CSV is open (sent, and the import waited
 * for, against wsm serve), stopped by a damaged sheet, or done: the folder is empty every time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { writeXlsx } from '../../src/formats/xlsx/sheet-writer.js';
import { sheetXml, workbookParts, zipBytes } from '../formats/xlsx/crafted.js';
import { BIN, cleanup, testEnv, wsm } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-e2e-temp-'));
let big: string;
let backend: Backend;
afterAll(async () => {
  await backend?.stop();
  cleanup(dir);
});

beforeAll(async () => {
  backend = await BACKENDS[0].start();
  big = join(dir, 'big.xlsx');
  const chunks: Buffer[] = [];
  async function* pages() {
    for (let page = 0; page < 100; page++)
      yield Array.from({ length: 1000 }, (_, i) => [
        `1415555${String(page * 1000 + i).padStart(5, '0')}`,
        `Person ${page}-${i}`,
        'somewhere@example.com',
      ]);
  }
  await writeXlsx(
    { write: async (bytes) => void chunks.push(Buffer.from(bytes)) },
    { sheetName: 'Big', header: ['number', 'name', 'email'], rows: pages(), sample: [] },
  );
  writeFileSync(big, Buffer.concat(chunks));
});

/** An environment whose temporary folder is a new, empty one (with `served`, wsm serve's profile). */
function withTemp(name: string, served = false): { env: NodeJS.ProcessEnv; temp: string } {
  const temp = join(dir, name);
  mkdirSync(temp);
  return { env: { ...(served ? backend.env : testEnv(dir)), TMPDIR: temp }, temp };
}

/** Whether the process holds the sheet's CSV open (a file made by wsm in its temporary folder). */
function holdsSheetCsv(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return /\/big\.csv( \(deleted\))?$/.test(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Starts an import of the big sheet, sends `signal` once its CSV is open, and resolves with how it ended. */
function interrupted(
  env: NodeJS.ProcessEnv,
  signal: NodeJS.Signals,
  temp: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; seen: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'contacts', 'import', big, '--wait', '--interval', '0.1s'], { env, stdio: 'ignore' });
    let seen = false;
    const poll = setInterval(() => {
      // Once the CSV is open and its folder gone: a kill between making the folder and removing it (a few system calls) is not the case tested.
      if (!seen && holdsSheetCsv(child.pid!) && readdirSync(temp).length === 0) {
        seen = true;
        child.kill(signal);
      }
    }, 20);
    child.on('exit', (code, how) => {
      clearInterval(poll);
      resolve({ code, signal: how, seen });
    });
  });
}

describe('the temporary CSV of a sheet', () => {
  it.each(['SIGINT', 'SIGKILL'] as const)(
    "%s while the sheet's CSV is sent or its import waited for leaves nothing in the temporary folder",
    async (signal) => {
      const { env, temp } = withTemp(signal, true);
      const ended = await interrupted(env, signal, temp);
      expect(ended.seen).toBe(true);
      expect(ended.code === 0).toBe(false);
      expect(readdirSync(temp)).toEqual([]);
    },
  );

  it('a sheet found damaged half way leaves nothing; a sheet read whole leaves nothing', async () => {
    const { env, temp } = withTemp('error');
    const rows = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${14155550000 + i}</v></c></row>`).join('');
    const damaged = join(dir, 'damaged.xlsx');
    writeFileSync(
      damaged,
      zipBytes(
        workbookParts(
          sheetXml(
            `<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row>${rows}<row r="5000"><c r="A5000"><v>0x1F</v></c></row>`,
          ),
        ),
      ),
    );
    const failed = await wsm(env, ['contacts', 'import', damaged, '--dry-run']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${damaged} (cell A5000 of sheet "Contacts")`);
    expect(readdirSync(temp)).toEqual([]);
    const whole = await wsm(env, ['contacts', 'import', big, '--dry-run', '-o', 'json']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout)).toMatchObject({ rows: 100_000, valid_rows: 100_000 });
    expect(readdirSync(temp)).toEqual([]);
  });
});
