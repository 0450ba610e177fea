// What a file named .xlsx is before it is opened as a ZIP archive, from its first bytes: a
// password-protected workbook (Office encrypts it into a Compound File, magic D0 CF 11 E0), an old
// .xls (a Compound File too), CSV or other text saved under the wrong name, or an empty file. Each
// gets the words that say what to do, where "it is not a ZIP archive" would say nothing.
import { open } from 'node:fs/promises';
import { WorkbookError } from '../workbook-error.js';

const SAMPLE = 64 * 1024;
/** Where a Compound File keeps its directory: near its start, well within this. */
const COMPOUND_SAMPLE = 1024 * 1024;
const COMPOUND_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** The stream an encrypted Office file keeps its key data in, named in UTF-16 in its directory. */
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');

async function firstBytes(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the bytes read as text: UTF-8 without NUL, or a UTF-16 byte order mark. */
function isText(bytes: Buffer): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return true;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return true;
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Throws a WorkbookError saying what the file is when it is plainly no ZIP archive; returns for one that may be. */
export async function sniffWorkbook(path: string): Promise<void> {
  let head: Buffer;
  try {
    head = await firstBytes(path, SAMPLE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WorkbookError(path, `it cannot be read (${code})`);
  }
  if (head.length === 0) throw new WorkbookError(path, 'it is empty, not a workbook');
  if (head.subarray(0, 2).toString('latin1') === 'PK') return;
  if (head.subarray(0, 8).equals(COMPOUND_MAGIC)) {
    const compound = await firstBytes(path, COMPOUND_SAMPLE);
    if (compound.includes(ENCRYPTION_INFO))
      throw new WorkbookError(path, 'it is password-protected: save it without a password, then import it again');
    throw new WorkbookError(path, 'it is an old Excel 97-2003 file (.xls), not an .xlsx workbook: save it as .xlsx, then import it again');
  }
  if (isText(head)) {
    const text =
      head[0] === 0xff || head[0] === 0xfe ? head.subarray(2).toString(head[0] === 0xff ? 'utf16le' : 'latin1') : head.toString('utf8');
    const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
    if (/[,;\t]/.test(firstLine))
      throw new WorkbookError(path, 'it is CSV text, not an .xlsx workbook: name it .csv, then import it again');
    throw new WorkbookError(path, 'it is text, not an .xlsx workbook (a workbook is a ZIP archive): save it from a spreadsheet as .xlsx');
  }
}
