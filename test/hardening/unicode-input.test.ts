/**
 * Text that is not valid Unicode is refused, never stored altered: half a
 * surrogate pair escaped in JSON, bytes that are not UTF-8 in a JSON body or a multipart field,
 * a JSON body declared in another charset or compressed, a query value whose percent-encoding is
 * not UTF-8: a 422 naming the field, and nothing stored. Valid text of every kind passes as it was sent, from clients that declare a charset on
 * each text part (.NET, Spring) and from those that do not (browsers, curl). And a multipart field
 * name nested thousands of brackets deep is a 422, on every multipart operation, not a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../server/harness.js';
import { decodeKeepingInvalid } from '../../src/server/http/unicode.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const ws = (suffix: string) => `/api/v3/workspaces/${h.ws}${suffix}`;
const invalid = (field: string, label = field.split('.').pop()!.replace(/_/g, ' ')) => ({
  message: 'Validation error',
  errors: { [field]: [`The ${label} field must be valid UTF-8 text.`] },
});
const json = (bytes: Buffer | string, contentType = 'application/json') => ({
  payload: Buffer.from(bytes),
  headers: { 'content-type': contentType },
});

interface Part {
  name: string;
  value: Buffer | string;
  /** The part's own Content-Type header, e.g. `text/plain; charset=utf-8`. */
  type?: string;
  filename?: string;
}
/** A multipart body byte by byte: the test decides every header and byte of each part. */
function form(parts: Part[]) {
  const boundary = 'unicodeBoundary42';
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}\r\n` +
        (part.type ? `Content-Type: ${part.type}\r\n` : '') +
        '\r\n',
    ),
    Buffer.from(part.value),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const count = async (url: string) => (await h.call({ method: 'GET', url })).json().meta.total;
/** Bytes that are not UTF-8: a three-byte sequence cut after two bytes. */
const CUT = Buffer.from([0xe2, 0x82]);

describe('JSON bodies', () => {
  it('half a surrogate pair (\\ud800) is a 422 naming the field, on every kind of record, and nothing is stored', async () => {
    const cases: Array<[string, string, string]> = [
      ['/labels', '{"name":"\\ud800 x"}', 'name'],
      ['/contact-groups', '{"name":"x \\udc80"}', 'name'],
      ['/roles', '{"name":"\\udbff"}', 'name'],
      ['/contacts', '{"number":"5550001000","name":"Ann \\ud83d"}', 'name'],
      ['/templates', '{"name":"hello","language":"en","category":"UTILITY","body":{"text":"Hi \\ude00 there"}}', 'body.text'],
      ['/users', '{"name":"Bob","email":"bob@example.com","password":"a long password","role_id":1,"timezone":"\\ud800"}', 'timezone'],
    ];
    for (const [path, body, field] of cases) {
      const before = await count(ws(path));
      const res = await h.call({ method: 'POST', url: ws(path), ...json(body) });
      expect({ path, status: res.statusCode, body: res.json() }).toEqual({ path, status: 422, body: invalid(field) });
      expect(await count(ws(path))).toBe(before);
    }
  });

  it('bytes that are not UTF-8 are a 422 naming the field (nested ones by their dotted path), never U+FFFD', async () => {
    const label = await h.call({
      method: 'POST',
      url: ws('/labels'),
      ...json(Buffer.concat([Buffer.from('{"name":"fz'), CUT, Buffer.from('"}')])),
    });
    expect({ status: label.statusCode, body: label.json() }).toEqual({ status: 422, body: invalid('name') });
    const nested = Buffer.concat([
      Buffer.from('{"name":"bytes","language":"en","category":"UTILITY","body":{"text":"caf'),
      Buffer.from([0xe9]),
      Buffer.from(' ok"}}'),
    ]);
    expect((await h.call({ method: 'POST', url: ws('/templates'), ...json(nested) })).json()).toEqual(invalid('body.text'));
    const inList = Buffer.concat([
      Buffer.from('{"name":"Listed","permissions":["contacts.view","x'),
      Buffer.from([0xff]),
      Buffer.from('"]}'),
    ]);
    expect((await h.call({ method: 'POST', url: ws('/roles'), ...json(inList) })).json()).toEqual(invalid('permissions.1', 'permissions'));
    expect((await h.call({ method: 'GET', url: ws('/labels') })).body).not.toContain('\uFFFD');
  });

  it('a body declared in another charset, or compressed, is a 422 on the body rather than read as something else', async () => {
    const latin = await h.call({
      method: 'POST',
      url: ws('/labels'),
      ...json(Buffer.from('{"name":"caf\xe9"}', 'latin1'), 'application/json; charset=iso-8859-1'),
    });
    expect(latin.json()).toEqual({
      message: 'Validation error',
      errors: { body: ['The request body must be JSON in UTF-8, not iso-8859-1.'] },
    });
    const gzip = await h.call({
      method: 'POST',
      url: ws('/labels'),
      payload: '{"name":"zipped"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(gzip.json()).toEqual({
      message: 'Validation error',
      errors: { body: ['The request body must not be compressed (Content-Encoding: gzip): send it as it is.'] },
    });
  });

  it('valid text of every kind passes as sent: accents, emoji, joiners, right-to-left, a replacement character typed on purpose', async () => {
    for (const name of ['café Ünïcødé', '😀👍🏽 👨‍👩‍👧', 'עברית العربية', 'already lost: \uFFFD', '日本語 \u200B']) {
      const res = await h.call({
        method: 'POST',
        url: ws('/labels'),
        ...json(JSON.stringify({ name }), 'application/json; charset=UTF-8'),
      });
      expect({ name, status: res.statusCode, stored: res.json().data?.name }).toEqual({ name, status: 201, stored: name });
    }
  });
});

describe('query strings', () => {
  it('a value whose percent-encoding is not UTF-8 is a 422 naming the parameter, not a search for the literal %ff', async () => {
    for (const [query, name] of [
      ['status=%ff', 'status'],
      ['search=caf%E9', 'search'],
      ['search=%ED%A0%80', 'search'],
      ['category=UTILITY&status=%C3%28', 'status'],
    ]) {
      const res = await h.call({ method: 'GET', url: ws(`/templates?${query}`) });
      expect({ query, status: res.statusCode, body: res.json() }).toEqual({
        query,
        status: 422,
        body: {
          message: 'Validation error',
          errors: { [name]: [`The ${name} field must be valid UTF-8 text (percent-encoded UTF-8 in a URL).`] },
        },
      });
    }
    const ok = await h.call({ method: 'GET', url: ws('/labels?page=1&per_page=5&x=caf%C3%A9%20%F0%9F%98%80') });
    expect(ok.statusCode).toBe(200);
  });
});

describe('multipart forms', () => {
  it('a field whose bytes are not UTF-8 is a 422 naming it (bracket names by their dotted path), and nothing is stored', async () => {
    const before = await count(ws('/contacts'));
    const res = await h.call({
      method: 'POST',
      url: ws('/contacts'),
      ...form([
        { name: 'number', value: '5550002000' },
        { name: 'name', value: Buffer.concat([Buffer.from('Ann '), CUT]) },
      ]),
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 422, body: invalid('name') });
    expect(await count(ws('/contacts'))).toBe(before);
    const template = await h.call({
      method: 'POST',
      url: ws('/templates'),
      ...form([
        { name: 'name', value: 'form_bytes' },
        { name: 'language', value: 'en' },
        { name: 'category', value: 'UTILITY' },
        { name: 'body[text]', value: Buffer.concat([Buffer.from('Hello '), Buffer.from([0xc3, 0x28])]) },
      ]),
    });
    expect(template.json()).toEqual(invalid('body.text', 'text'));
  });

  it('valid UTF-8 is stored exactly, whether the part declares charset=utf-8 (.NET, Spring) or nothing (browsers, curl)', async () => {
    const name = 'Zoë 😀 Ñandú';
    for (const [number, type] of [
      ['5550003000', undefined],
      ['5550003001', 'text/plain; charset=utf-8'],
      ['5550003002', 'text/plain'],
    ] as const) {
      const res = await h.call({
        method: 'POST',
        url: ws('/contacts'),
        ...form([
          { name: 'number', value: number, type },
          { name: 'name', value: name, type },
        ]),
      });
      expect({ type, status: res.statusCode, name: res.json().data?.name }).toEqual({ type, status: 201, name });
    }
  });

  it('a field name nested 3,000 brackets deep is a 422 on each of the five multipart operations, never a 500', async () => {
    const contact = (await h.create(ws('/contacts'), { number: '5550004000', name: 'Deep' })).id;
    const deep = `a${'[b]'.repeat(3000)}`;
    const expected = {
      message: 'Validation error',
      errors: { a: [`The field name ${deep.slice(0, 40)}… nests 3000 levels of brackets: at most 10 are read.`] },
    };
    const operations = [ws('/contacts'), ws(`/contacts/${contact}`), ws('/users/1'), ws('/templates'), ws('/contact-imports')];
    for (const url of operations) {
      const res = await h.call({ method: 'POST', url, ...form([{ name: deep, value: '1' }]) });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 422, body: expected });
    }
    // The API's own nesting still reads.
    const media = await h.call({ method: 'POST', url: ws('/templates'), ...form([{ name: 'header[media][type]', value: 'image' }]) });
    expect(media.json().errors).not.toHaveProperty('header');
  });
});

describe('decoding keeps every byte', () => {
  /** The inverse of decodeKeepingInvalid: U+DC80..U+DCFF alone back to its byte, everything else as UTF-8. */
  const encode = (text: string) =>
    Buffer.concat(
      [...text].map((char) => (/^[\udc80-\udcff]$/.test(char) ? Buffer.from([char.charCodeAt(0) - 0xdc00]) : Buffer.from(char, 'utf8'))),
    );

  it('any bytes decode to text that gives the same bytes back; valid UTF-8 decodes as Node decodes it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc
            .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 16 })
            .map((points) => new Uint8Array(Buffer.from(String.fromCodePoint(...points)))),
        ),
        (array) => {
          const bytes = Buffer.from(array);
          const text = decodeKeepingInvalid(bytes);
          expect(encode(text).equals(bytes)).toBe(true);
          if (Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)) expect(text).toBe(bytes.toString('utf8'));
        },
      ),
      { seed: 22, numRuns: 300 },
    );
    // Encoded surrogates and overlong forms are not UTF-8: each byte stays apart.
    expect(decodeKeepingInvalid(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\udced\udca0\udc80');
    expect(decodeKeepingInvalid(Buffer.from([0xc0, 0xaf, 0x41]))).toBe('\udcc0\udcafA');
  });
});
