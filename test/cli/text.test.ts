// The pure text pieces every terminal output goes through.
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { redactSecret } from '../../src/api/redact.js';
import { relativeTime, toneOf } from '../../src/cli/present.js';
import { progressLine } from '../../src/cli/progress.js';
import { neutraliseFormula } from '../../src/formats/csv/cells.js';
import { fitWidths, safeJson, truncate, visible, visibleLine, wrap } from '../../src/cli/text.js';

describe('visible', () => {
  it('shows escape, bell, DEL, C1 and bidi controls as escapes; plain text is untouched', () => {
    expect(visible('Ann \x1b]0;pwned\x07 Lee')).toBe('Ann \\x1b]0;pwned\\x07 Lee');
    expect(visible('a\x7fb\x9bc')).toBe('a\\x7fb\\x9bc');
    expect(visible('abc\u202edcba')).toBe('abc\\u202edcba');
    expect(visible('Zoë 名前 🙂')).toBe('Zoë 名前 🙂');
  });

  it('visibleLine puts a multi-line value on one line', () => {
    expect(visibleLine('first\r\nsecond\nthird\tcell')).toBe('first second third cell');
  });

  it('safeJson escapes what JSON.stringify leaves raw, and stays the same JSON', () => {
    const value = { name: 'a\x9b[31mb\u202ec' };
    const text = safeJson(JSON.stringify(value));
    expect(text).toBe('{"name":"a\\u009b[31mb\\u202ec"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('widths', () => {
  it('truncate cuts to display columns with …, wide characters counted twice', () => {
    expect(truncate('abcdefgh', 5, stringWidth)).toBe('abcd…');
    expect(truncate('名前名前名前', 5, stringWidth)).toBe('名前…');
    expect(truncate('short', 10, stringWidth)).toBe('short');
  });

  it('wrap breaks at spaces, keeps line breaks, and never cuts a long word', () => {
    expect(wrap('the quick brown fox jumps', 10, stringWidth)).toEqual(['the quick', 'brown fox', 'jumps']);
    expect(wrap('one\ntwo three', 20, stringWidth)).toEqual(['one', 'two three']);
    const url = 'https://example.com/' + 'x'.repeat(50);
    expect(wrap(`see ${url} now`, 20, stringWidth)).toEqual(['see', url, 'now']);
  });

  it('fitWidths shrinks the widest free columns first and never a fixed one', () => {
    // id (fixed) 3, name 40, email 30, status 6; 2 between columns; 60 wide.
    const widths = fitWidths([3, 40, 30, 6], [true, false, false, false], 60, 2)!;
    expect(widths[0]).toBe(3);
    expect(widths[3]).toBe(6);
    expect(widths.reduce((a, b) => a + b) + 6).toBe(60);
    expect(Math.abs(widths[1] - widths[2])).toBeLessThanOrEqual(1);
    expect(fitWidths([3, 10], [true, false], 80, 2)).toEqual([3, 10]);
    // Fixed columns alone too wide: no layout fits.
    expect(fitWidths([50, 50, 10], [true, true, false], 80, 2)).toBeUndefined();
  });
});

describe('neutraliseFormula (CSV injection)', () => {
  it.each(['=SUM(A1)', '+1+1', '-2+3', '@cmd', '\tx', '\rx'])('prefixes %j with a quote', (cell) => {
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  });

  it('leaves ordinary text alone', () => {
    expect(neutraliseFormula('Ann = Lee')).toBe('Ann = Lee');
    expect(neutraliseFormula('ann@example.com')).toBe('ann@example.com');
  });
});

describe('redactSecret', () => {
  it('masks a token where it stands as a token', () => {
    expect(redactSecret('Bearer wsm_abc123xyz', 'wsm_abc123xyz')).toBe('Bearer ***');
    expect(redactSecret('{"token":"wsm_abc123xyz"}', 'wsm_abc123xyz')).toBe('{"token":"***"}');
    expect(redactSecret('/tokens/wsm_abc123xyz?x=wsm_abc123xyz&y', 'wsm_abc123xyz')).toBe('/tokens/***?x=***&y');
  });

  it('never garbles words that merely contain it, and ignores strings too short to be secrets', () => {
    expect(redactSecret('Route GET:/api/v3/x not found', 't')).toBe('Route GET:/api/v3/x not found');
    expect(redactSecret('the routes are fine', 'rout')).toBe('the routes are fine');
    expect(redactSecret('a tokenized word', 'token')).toBe('a tokenized word');
  });
});

describe('values for people', () => {
  const now = new Date('2025-03-01T12:00:00.000Z');
  it.each([
    ['2025-03-01T11:59:55.000Z', 'just now'],
    ['2025-03-01T11:57:00.000Z', '3 minutes ago'],
    ['2025-03-01T11:00:00.000Z', '1 hour ago'],
    ['2025-02-26T12:00:00.000Z', '3 days ago'],
    ['2024-01-01T00:00:00.000Z', '1 year ago'],
    ['2025-03-01T14:00:00.000Z', 'in 2 hours'],
    ['not a time', 'not a time'],
  ])('%s reads as %s', (value, text) => {
    expect(relativeTime(value, now)).toBe(text);
  });

  it('status tones', () => {
    expect([toneOf('APPROVED'), toneOf('completed'), toneOf(true)]).toEqual(['good', 'good', 'good']);
    expect([toneOf('REJECTED'), toneOf('failed'), toneOf(false)]).toEqual(['bad', 'bad', 'bad']);
    expect([toneOf('PENDING'), toneOf('processing')]).toEqual(['waiting', 'waiting']);
    expect(toneOf('Ann')).toBeUndefined();
  });

  it('a progress line shows done/total, percentage, rate and time left; without a total, done and rate', () => {
    expect(progressLine('Exporting', 2500, 10000, 2000)).toBe('Exporting █████░░░░░░░░░░░░░░░ 25% | 2,500/10,000 | 1,250/s | 6s left');
    expect(progressLine('Exporting', 2500, undefined, 2000)).toBe('Exporting 2,500 | 1,250/s');
    // Fitted to the terminal (finding 15): the bar narrows, then goes, then the time left and the rate.
    const full = progressLine('Exporting contacts', 90900, 300018, 2000);
    expect(full.length).toBe(81);
    expect(progressLine('Exporting contacts', 90900, 300018, 2000, 79)).toBe(
      'Exporting contacts █████░░░░░░░░░░░░░ 30% | 90,900/300,018 | 45,450/s | 5s left',
    );
    expect(progressLine('Exporting contacts', 90900, 300018, 2000, 59)).toBe('Exporting contacts 30% | 90,900/300,018 | 45,450/s');
    expect(progressLine('Exporting contacts', 90900, 300018, 2000, 45)).toBe('Exporting contacts 30% | 90,900/300,018');
    expect(progressLine('Exporting contacts', 90900, 300018, 2000, 20)).toBe('Exporting contacts …');
  });
});
