// The one progress reporter of the CLI: commands call `update(done, total?)` and `done()`, and
// this draws `label [bar] 42% | 4,200/10,000 | 1,234/s | 5s left` on stderr with cli-progress
// (done, rate and time left alone while the total is unknown). IOStreams hands out a silent one
// unless stderr is a terminal and -q was not given. cli-progress loads on the first real
// reporter, so start-up and piped runs never pay for it.
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';
import type { GenericFormatter, Options, Params } from 'cli-progress';

export interface Progress {
  /** Work done so far; `total` once known (an import learns it after the server counted). */
  update(done: number, total?: number): void;
  /** Clears the line; safe to call more than once. */
  done(): void;
}

export const silentProgress: Progress = { update() {}, done() {} };

/** Bars still drawing: cli-progress redraws on a timer that would keep the process alive. */
const drawing = new Set<Progress>();

/**
 * Clears every bar still drawn. main() calls it when a command ends, however it ends, so an
 * error line never lands on a half-drawn bar and a forgotten done() never hangs the process.
 */
export function stopAllProgress(): void {
  for (const progress of [...drawing]) progress.done();
}

const BAR_WIDTH = 20;
// Made on first use: building an Intl formatter loads ICU data (~20 ms), which every command
// importing this module (through io.ts) would otherwise pay at start-up.
let numberFormatter: Intl.NumberFormat | undefined;
const numberFormat = { format: (n: number) => (numberFormatter ??= new Intl.NumberFormat('en-US')).format(n) };

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The line for `value` of `total` (undefined: unknown) after `elapsedMs`. Exported for tests. */
export function progressLine(label: string, value: number, total: number | undefined, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (value * 1000) / elapsedMs : 0;
  const rateText = `${numberFormat.format(Math.round(rate))}/s`;
  if (total === undefined || total <= 0) return `${label} ${numberFormat.format(value)} | ${rateText}`;
  const ratio = Math.min(1, value / total);
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  const left = rate > 0 ? duration((total - value) / rate) : '?';
  return `${label} ${bar} ${Math.floor(ratio * 100)}% | ${numberFormat.format(value)}/${numberFormat.format(total)} | ${rateText} | ${left} left`;
}

/** A reporter drawing on `stream` (a terminal). */
export function terminalProgress(stream: NodeJS.WritableStream, label: string, total?: number): Progress {
  let knownTotal = total;
  let finished = false;
  const started = Date.now();
  const format: GenericFormatter = (_options: Options, params: Params) =>
    progressLine(label, params.value, knownTotal, Date.now() - started);

  // Required, not imported: a CommonJS module loaded synchronously, so the first line is drawn
  // at once (a quick command would otherwise end before an import resolved).
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar({
    stream,
    format,
    fps: 10,
    hideCursor: null,
    clearOnComplete: true,
    linewrap: false,
  });
  // The line is drawn by our formatter; cli-progress only needs a positive total to run its loop.
  bar.start(Math.max(1, knownTotal ?? 1), 0);

  const progress: Progress = {
    update(done, newTotal) {
      if (finished) return;
      if (newTotal !== undefined) {
        knownTotal = newTotal;
        bar.setTotal(Math.max(1, newTotal));
      }
      bar.update(done);
    },
    done() {
      if (finished) return;
      finished = true;
      drawing.delete(progress);
      bar.stop();
    },
  };
  drawing.add(progress);
  return progress;
}
