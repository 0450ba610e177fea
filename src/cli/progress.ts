// The one progress reporter of the CLI: commands call `update(done, total?)` and `done()`, and
// this draws `label [bar] 42% | 4,200/10,000 | 1,234/s | 5s left` on stderr, fitted to its width
// (done, rate and time left alone while the total is unknown). IOStreams hands out a silent one
// unless stderr is a terminal and -q was not given.
//
// The bar owns the terminal's last line and nothing else: it is drawn with `\r` and erased with
// an erase-line, never with a saved-and-restored cursor, because stdout may be the same terminal
// and write rows in between (a restore would go back over them and erase one). TerminalLine is
// told of every write to that terminal: it erases the bar first, and the bar comes back on the
// next tick once the cursor is at the start of a line again.

export interface Progress {
  /** Work done so far; `total` once known (an import learns it after the server counted). */
  update(done: number, total?: number): void;
  /** Clears the line; safe to call more than once. */
  done(): void;
}

export const silentProgress: Progress = { update() {}, done() {} };

/** Bars still drawing: their redraw timer must stop however the command ends. */
const drawing = new Set<Progress>();

/**
 * Clears every bar still drawn. main() calls it when a command ends, however it ends, so an
 * error line never lands on a half-drawn bar and a forgotten done() never leaves a timer behind.
 */
export function stopAllProgress(): void {
  for (const progress of [...drawing]) progress.done();
}

const ERASE_LINE = '\r\x1b[2K';

/**
 * The bottom line of a terminal, shared by the progress bar and whatever else writes there
 * (stdout rows when stdout is that terminal, stderr messages). Every such write goes through
 * `write`, which erases the bar before it; the bar is drawn again only at the start of a line.
 */
export class TerminalLine {
  private shown = false;
  private atLineStart = true;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Writes text to `target` (this terminal's stdout or stderr) with the bar out of the way. */
  write(target: NodeJS.WritableStream, text: string): void {
    if (text === '') return;
    this.erase();
    target.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  /** Draws `text` over the bar's line; skipped while a line written by someone else is unfinished. */
  draw(text: string): void {
    if (!this.shown && !this.atLineStart) return;
    this.stream.write(`\r${text}\x1b[K`);
    this.shown = true;
  }

  erase(): void {
    if (!this.shown) return;
    this.stream.write(ERASE_LINE);
    this.shown = false;
  }
}

const BAR_WIDTH = 20;
const MIN_BAR_WIDTH = 5;
// Made on first use: building an Intl formatter loads ICU data (~20 ms), which every command
// importing this module (through io.ts) would otherwise pay at start-up.
let numberFormatter: Intl.NumberFormat | undefined;
/** `300,018`: the one way numbers read in progress and in summary lines. */
function formatCount(n: number): string {
  return (numberFormatter ??= new Intl.NumberFormat('en-US')).format(n);
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The line for `value` of `total` (undefined: unknown) after `elapsedMs`, at most `width`
 * characters: the bar narrows first, then goes, then the time left, then the rate; the label is
 * cut last. Exported for tests.
 */
export function progressLine(label: string, value: number, total: number | undefined, elapsedMs: number, width = Infinity): string {
  const rate = elapsedMs > 0 ? (value * 1000) / elapsedMs : 0;
  const rateText = `${formatCount(Math.round(rate))}/s`;
  let parts: string[];
  let barWidth = 0;
  if (total === undefined || total <= 0) {
    parts = [formatCount(value), rateText];
  } else {
    const ratio = Math.min(1, value / total);
    const left = rate > 0 ? duration((total - value) / rate) : '?';
    parts = [`${Math.floor(ratio * 100)}%`, `${formatCount(value)}/${formatCount(total)}`, rateText, `${left} left`];
    barWidth = BAR_WIDTH;
  }
  const bar = (w: number) => {
    const filled = total ? Math.round(Math.min(1, value / total) * w) : 0;
    return '█'.repeat(filled) + '░'.repeat(w - filled);
  };
  const compose = (w: number, shown: string[]) => {
    const [first, ...rest] = shown;
    const head = w > 0 ? `${label} ${bar(w)} ${first}` : `${label} ${first}`;
    return [head, ...rest].join(' | ');
  };
  let line = compose(barWidth, parts);
  if (line.length <= width) return line;
  if (barWidth > 0) {
    const room = barWidth - (line.length - width);
    if (room >= MIN_BAR_WIDTH) return compose(room, parts);
    line = compose(0, parts);
  }
  // Drop the time left, then the rate, while the counts stay.
  while (line.length > width && parts.length > 2) {
    parts = parts.slice(0, -1);
    line = compose(0, parts);
  }
  if (line.length <= width) return line;
  return width <= 1 ? '' : `${line.slice(0, width - 1)}…`;
}

const FRAME_MS = 100;

/**
 * A reporter drawing on `line` (a terminal of `columns()` width). It draws at once, then at
 * most every 100 ms, and at once when the total is reached.
 */
export function terminalProgress(line: TerminalLine, columns: () => number | undefined, label: string, total?: number): Progress {
  let knownTotal = total;
  let value = 0;
  let finished = false;
  let drawnAt = 0;
  const started = Date.now();
  // One column short of the width: a character in the last column makes some terminals wrap.
  const draw = () => {
    drawnAt = Date.now();
    line.draw(progressLine(label, value, knownTotal, drawnAt - started, Math.max(10, (columns() ?? 80) - 1)));
  };
  // The timer redraws after stdout wrote over the line and keeps the rate moving between updates;
  // unref'd, so it never keeps the process alive on its own.
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  draw();

  const progress: Progress = {
    update(done, newTotal) {
      if (finished) return;
      if (newTotal !== undefined) knownTotal = newTotal;
      value = done;
      if (Date.now() - drawnAt >= FRAME_MS || (knownTotal !== undefined && done >= knownTotal)) draw();
    },
    done() {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      drawing.delete(progress);
      line.erase();
    },
  };
  drawing.add(progress);
  return progress;
}
