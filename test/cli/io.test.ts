import { describe, expect, it } from 'vitest';
import { createTestIO, noColorRequested } from '../../src/cli/io.js';

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

  it('colour follows stdout being a terminal until disabled', () => {
    expect(createTestIO({ stdoutTTY: true }).colorEnabled).toBe(true);
    expect(createTestIO().colorEnabled).toBe(false);
    const io = createTestIO({ stdoutTTY: true });
    io.disableColor();
    expect(io.colorEnabled).toBe(false);
  });

  it('NO_COLOR counts only when set and not empty (no-color.org)', () => {
    expect(noColorRequested({ NO_COLOR: '1' })).toBe(true);
    expect(noColorRequested({ NO_COLOR: '' })).toBe(false);
    expect(noColorRequested({})).toBe(false);
  });
});
