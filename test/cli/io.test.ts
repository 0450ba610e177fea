import { describe, expect, it } from 'vitest';
import { colorWanted, noColorRequested, paint } from '../../src/cli/color.js';
import { createTestIO } from '../../src/cli/io.js';

describe('IOStreams', () => {
  it('readStdin returns piped input', async () => {
    expect(await createTestIO({ stdin: 'tok\n' }).readStdin()).toBe('tok\n');
  });

  it('readStdin never waits on a terminal', async () => {
    // The terminal stdin of createTestIO never ends: waiting on it would time the test out.
    expect(await createTestIO({ stdinTTY: true }).readStdin()).toBe('');
  });

  it('progress draws on a terminal stderr only, and clears its line when done', () => {
    const tty = createTestIO({ stderrTTY: true });
    const bar = tty.progress('Importing', 3);
    bar.update(3);
    bar.done();
    expect(tty.stderrText).toContain('Importing ░░░░░░░░░░░░░░░░░░░░ 0% | 0/3');
    expect(tty.stderrText).toContain('Importing ████████████████████ 100% | 3/3');
    // done() clears the line (carriage return, erase line); no cursor save/restore ever.
    expect(tty.stderrText.endsWith('\r\x1b[2K')).toBe(true);
    expect(tty.stderrText).not.toMatch(/\x1b[78]/);
    expect(tty.stdoutText).toBe('');

    const piped = createTestIO();
    const quiet = piped.progress('Importing', 3);
    quiet.update(1);
    quiet.done();
    expect(piped.stderrText).toBe('');
  });

  it('colour follows each stream being a terminal until the flags and environment decide', () => {
    expect(createTestIO({ stdoutTTY: true }).colorEnabled).toBe(true);
    expect(createTestIO().colorEnabled).toBe(false);
    const io = createTestIO({ stdoutTTY: true, stderrTTY: false });
    io.chooseColor({}, false);
    expect(io.colorEnabled).toBe(false);
    const forced = createTestIO({ stdoutTTY: false, stderrTTY: false });
    forced.chooseColor({ FORCE_COLOR: '1' }, true);
    expect([forced.colorEnabled, forced.stderrColorEnabled]).toEqual([true, true]);
    const split = createTestIO({ stdoutTTY: false, stderrTTY: true });
    split.chooseColor({}, true);
    expect([split.colorEnabled, split.stderrColorEnabled]).toEqual([false, true]);
  });

  it('a dumb terminal gets no progress line: it cannot erase one', () => {
    const io = createTestIO({ stdoutTTY: true });
    io.chooseColor({ TERM: 'dumb' }, true);
    const progress = io.progress('Importing', 3);
    progress.update(1);
    progress.done();
    expect(io.stderrText).toBe('');
  });

  it('NO_COLOR counts only when set and not empty (no-color.org); NODE_DISABLE_COLORS as Node reads it', () => {
    expect(noColorRequested({ NO_COLOR: '1' })).toBe(true);
    expect(noColorRequested({ NO_COLOR: '' })).toBe(false);
    expect(noColorRequested({ NODE_DISABLE_COLORS: '1' })).toBe(true);
    expect(noColorRequested({})).toBe(false);
  });

  it('decides colour by the conventions, in order: --no-color, NO_COLOR, FORCE_COLOR, TERM=dumb, a terminal', () => {
    const cases: [boolean, Record<string, string>, boolean, boolean][] = [
      // [isTTY, env, --color allowed, coloured]
      [true, {}, true, true],
      [false, {}, true, false],
      [true, {}, false, false],
      [true, { NO_COLOR: '1' }, true, false],
      [true, { NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
      [false, { FORCE_COLOR: '1' }, true, true],
      [false, { FORCE_COLOR: '' }, true, true],
      [false, { FORCE_COLOR: 'true' }, true, true],
      [false, { FORCE_COLOR: '3' }, true, true],
      [true, { FORCE_COLOR: '0' }, true, false],
      [true, { FORCE_COLOR: 'false' }, true, false],
      [false, { FORCE_COLOR: '1' }, false, false],
      [true, { TERM: 'dumb' }, true, false],
      [true, { TERM: 'dumb', FORCE_COLOR: '1' }, true, true],
      [true, { TERM: 'xterm-256color' }, true, true],
    ];
    for (const [tty, env, flag, coloured] of cases)
      expect({ tty, env, flag, coloured: colorWanted(tty, env, flag) }).toEqual({ tty, env, flag, coloured });
  });

  it('paints through util.styleText, and leaves text alone when colour is off', () => {
    expect(paint(true, 'green', 'ok')).toBe('\x1b[32mok\x1b[39m');
    expect(paint(true, 'bold', 'NAME')).toBe('\x1b[1mNAME\x1b[22m');
    expect(paint(false, 'green', 'ok')).toBe('ok');
    expect(paint(true, 'green', '')).toBe('');
  });
});
