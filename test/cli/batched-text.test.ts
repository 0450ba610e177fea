/** batched: text handed on in pieces of at least 64 KiB, in order, all of it once `end` is called. */
import { describe, expect, it } from 'vitest';
import { batched } from '../../src/cli/batched-text.js';

describe('batched', () => {
  it('hands on nothing below 64 KiB, then whole pieces, and the rest at the end', () => {
    const pieces: string[] = [];
    const out = batched((text) => pieces.push(text));
    const line = `${'x'.repeat(99)}\n`;
    for (let at = 0; at < 655; at++) out.write(line);
    expect(pieces).toEqual([]);
    for (let at = 0; at < 1000; at++) out.write(line);
    out.end();
    expect(pieces.slice(0, -1).every((piece) => piece.length >= 1 << 16)).toBe(true);
    expect(pieces.length).toBe(3);
    expect(pieces.join('')).toBe(line.repeat(1655));
  });
});
