/**
 * wsm's multipart encoder: text values as given (undici's FormData made every LF a
 * CRLF), names quoted as browsers do, files streamed, the length known, the body readable again
 * for a retry. Read back by the platform's form parser, which is what the stand-in uses.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeMultipart } from '../../src/api/multipart.js';

async function bytesOf(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('encodeMultipart', () => {
  it('writes each text value byte for byte: LF, CR and CRLF stay as given', async () => {
    const form = await encodeMultipart([
      { name: 'fields[notes]', value: 'a\nb' },
      { name: 'crlf', value: 'c\r\nd' },
      { name: 'cr', value: 'e\rf' },
      { name: 'accents', value: 'Zoë ☕' },
    ]);
    const boundary = /boundary=(\S+)$/.exec(form.contentType)![1];
    const bytes = await bytesOf(form.body());
    expect(bytes.toString('utf8')).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="fields[notes]"\r\n\r\na\nb\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="crlf"\r\n\r\nc\r\nd\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="cr"\r\n\r\ne\rf\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="accents"\r\n\r\nZoë ☕\r\n` +
        `--${boundary}--\r\n`,
    );
    expect(form.length).toBe(bytes.length);
    const parsed = await new Response(bytes, { headers: { 'content-type': form.contentType } }).formData();
    expect([...parsed.entries()]).toEqual([
      ['fields[notes]', 'a\nb'],
      ['crlf', 'c\r\nd'],
      ['cr', 'e\rf'],
      ['accents', 'Zoë ☕'],
    ]);
  });

  it('streams files from disk and memory with their names and types; a second read gives the same bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wsm-multipart-'));
    try {
      const path = join(dir, 'people "q1".csv');
      await writeFile(path, 'number,name\n14155550101,Ann\n');
      const form = await encodeMultipart([
        { name: 'file', filePath: path, contentType: 'text/csv' },
        { name: 'avatar', filename: 'a.png', data: new Uint8Array([0x89, 0x50, 0x0d, 0x0a]) },
      ]);
      const first = await bytesOf(form.body());
      expect(await bytesOf(form.body())).toEqual(first);
      expect(form.length).toBe(first.length);
      expect(first.toString('latin1')).toContain(
        'name="file"; filename="people %22q1%22.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,name\n14155550101,Ann\n\r\n',
      );
      const parsed = await new Response(first, { headers: { 'content-type': form.contentType } }).formData();
      const csv = parsed.get('file') as File;
      expect([csv.name, csv.type, await csv.text()]).toEqual(['people "q1".csv', 'text/csv', 'number,name\n14155550101,Ann\n']);
      const png = parsed.get('avatar') as File;
      expect([png.name, png.type, [...new Uint8Array(await png.arrayBuffer())]]).toEqual([
        'a.png',
        'application/octet-stream',
        [0x89, 0x50, 0x0d, 0x0a],
      ]);
      expect(form.traceText).toBe('multipart: file=<file people "q1".csv, 28 bytes>, avatar=<file a.png, 4 bytes>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an unreadable file fails before anything is sent; secrets are hidden from the trace', async () => {
    await expect(encodeMultipart([{ name: 'file', filePath: '/nonexistent/x.csv' }])).rejects.toThrow('Unable to open file');
    expect(
      (
        await encodeMultipart([
          { name: 'password', value: 'hunter22' },
          { name: 'name', value: 'Ann' },
        ])
      ).traceText,
    ).toBe('multipart: password=***, name=Ann');
  });
});
