import { describe, expect, it } from 'vitest';
import { APIConnectionError } from '../../src/api/errors.js';
import { handleError } from '../../src/cli/error-report.js';
import { WaitGaveUpError, WaitTimedOutError } from '../../src/cli/errors.js';
import { createTestIO } from '../../src/cli/io.js';
import { retryLines } from '../../src/cli/wait-retries.js';

describe('a wait says its retries', () => {
  const clock = () => {
    let now = 0;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('on a terminal, every retry is a line', () => {
    const lines: string[] = [];
    const time = clock();
    const say = retryLines((line) => lines.push(line), { terminal: true, now: time.now });
    for (let i = 0; i < 4; i++) {
      say(`retry ${i}`);
      time.advance(1_000);
    }
    expect(lines).toEqual(['retry 0', 'retry 1', 'retry 2', 'retry 3']);
  });

  it('piped, the first retry at once, then at most one line every 30 s', () => {
    const lines: string[] = [];
    const time = clock();
    const say = retryLines((line) => lines.push(line), { terminal: false, now: time.now });
    for (let second = 0; second < 95; second++) {
      say(`at ${second}s`);
      time.advance(1_000);
    }
    expect(lines).toEqual(['at 0s', 'at 30s', 'at 60s', 'at 90s']);
  });

  it('giving up says the timeout and the cause, exit 6; a wait that timed out is said as before', () => {
    const refused = new APIConnectionError('Connection error.', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const io = createTestIO();
    const sink = { io, env: {}, secrets: () => [], baseUrl: 'https://api.example.com/api/v3', outputFormat: 'json' };
    expect(handleError(new WaitGaveUpError(10_000, refused), sink)).toBe(6);
    expect(io.stderrText).toBe('error: gave up after 10s: cannot reach https://api.example.com/api/v3 (connection refused)\n');
    expect(JSON.parse(io.stdoutText)).toEqual({
      error: { message: 'gave up after 10s: cannot reach https://api.example.com/api/v3 (connection refused)', exit_code: 6 },
    });
    const other = createTestIO();
    expect(handleError(new WaitTimedOutError(60_000, 'still PENDING: welcome'), { ...sink, io: other, outputFormat: undefined })).toBe(6);
    expect(other.stderrText).toBe('error: timed out after 1m: still PENDING: welcome\n');
  });
});
