/**
 * The reader of a form's part headers sees the body as the socket gives it, in chunks that may cut
 * a delimiter or a header block anywhere: whatever the cut, the parts that declare a charset are
 * found, and none that does not.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { watchPartCharsets } from '../../src/server/http/part-charsets.js';

const BOUNDARY = 'wsm-test-boundary';

function body(): Buffer {
  const part = (name: string, type: string | undefined, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`;
  return Buffer.from(
    part('name', 'text/plain; charset=utf-8', 'Café') +
      part('plain', undefined, `\r\n--${BOUNDARY.slice(0, 5)} not a delimiter`) +
      part('city', 'text/plain; charset=UTF-8', 'Bergen') +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n` +
      `number,name\r\n${'1650555000,Ann\r\n'.repeat(40)}\r\n` +
      part('last', 'text/plain; charset=utf-8', 'x') +
      `--${BOUNDARY}--\r\n`,
    'utf8',
  );
}

/** The fields `watchPartCharsets` found, the body given to it in `cuts` pieces. */
function declaredWhenCut(data: Buffer, cuts: number[]): string[] {
  const raw = new EventEmitter();
  const declared = watchPartCharsets(raw as IncomingMessage, BOUNDARY);
  let from = 0;
  for (const cut of [...cuts, data.length]) {
    raw.emit('data', data.subarray(from, cut));
    from = cut;
  }
  return [...declared].sort();
}

describe('the parts that declare a charset', () => {
  const data = body();
  const expected = ['city', 'last', 'name'];

  it('are found in a body read in one piece', () => {
    expect(declaredWhenCut(data, [])).toEqual(expected);
  });

  it('are found wherever one cut falls', () => {
    for (let cut = 1; cut < data.length; cut++) expect(declaredWhenCut(data, [cut]), `cut at ${cut}`).toEqual(expected);
  });

  it('are found when the body comes a few bytes at a time', () => {
    for (const step of [1, 2, 3, 7, 13]) {
      const cuts = [];
      for (let at = step; at < data.length; at += step) cuts.push(at);
      expect(declaredWhenCut(data, cuts), `${step} bytes at a time`).toEqual(expected);
    }
  });
});
