// Every command wsm suggests acts on the target of the command that suggested it:
// the --profile, --base-url and -w typed go into each `wsm …` a message names.
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../../src/cli/io.js';
import { createOutput } from '../../src/cli/output.js';
import { InterruptedError, UsageError } from '../../src/cli/errors.js';
import { handleError } from '../../src/cli/error-report.js';
import { targetCommand, withTarget } from '../../src/cli/suggest.js';

const ALL = { profile: "ann's", baseUrl: 'http://127.0.0.1:8080/api/v3', workspace: 'a-b' };

describe('targetCommand', () => {
  it('adds the --profile, --base-url and -w given, quoted for a shell; nothing when none was given', () => {
    expect(targetCommand({}, 'wsm imports get 8 --wait')).toBe('wsm imports get 8 --wait');
    expect(targetCommand(ALL, 'wsm imports get 8 --wait')).toBe(
      "wsm imports get 8 --wait --profile 'ann'\\''s' --base-url http://127.0.0.1:8080/api/v3 -w a-b",
    );
  });

  it('adds only the flags a command takes: none to serve or completion, --profile to profile commands, no -w to workspace use', () => {
    expect(targetCommand(ALL, 'wsm serve')).toBe('wsm serve');
    expect(targetCommand(ALL, 'wsm completion bash')).toBe('wsm completion bash');
    expect(targetCommand(ALL, 'wsm profile set base-url http://h/api/v3')).toBe(
      "wsm profile set base-url http://h/api/v3 --profile 'ann'\\''s'",
    );
    expect(targetCommand(ALL, 'wsm profile list')).toBe('wsm profile list');
    expect(targetCommand({ workspace: 'a-b' }, 'wsm workspace use 7f3c')).toBe('wsm workspace use 7f3c');
  });

  it('never names a flag twice, and goes before a redirection', () => {
    expect(targetCommand({ baseUrl: 'http://x/api/v3', workspace: 'w' }, 'wsm auth login --base-url http://y/api/v3')).toBe(
      'wsm auth login --base-url http://y/api/v3 -w w',
    );
    expect(targetCommand({ workspace: 'w' }, 'wsm contacts list --workspace=v')).toBe('wsm contacts list --workspace=v');
    expect(targetCommand({ profile: 'ci' }, 'wsm auth login --with-token < token.txt')).toBe(
      'wsm auth login --with-token --profile ci < token.txt',
    );
  });

  it('rewrites every backticked wsm command of a sentence, and nothing else', () => {
    expect(withTarget('run `wsm auth login` or `wsm serve`; wsm is a tool', { profile: 'ci' })).toBe(
      'run `wsm auth login --profile ci` or `wsm serve`; wsm is a tool',
    );
    expect(withTarget('run `wsm auth login`', undefined)).toBe('run `wsm auth login`');
  });
});

describe('the two printers of messages keep the target', () => {
  it('handleError: an error, an interrupt and -o json name the command with the flags given', () => {
    const target = { workspace: 'staging-uuid', profile: 'ci' };
    const io = createTestIO();
    const code = handleError(new InterruptedError('import 8 keeps running on the server: `wsm imports get 8 --wait`'), {
      io,
      env: {},
      secrets: () => [],
      target,
    });
    expect({ code, stderr: io.stderrText }).toEqual({
      code: 130,
      stderr: 'interrupted: import 8 keeps running on the server: `wsm imports get 8 --wait --profile ci -w staging-uuid`\n',
    });
    const json = createTestIO();
    handleError(new UsageError('run `wsm auth login`'), { io: json, env: {}, secrets: () => [], target, outputFormat: 'json' });
    expect(JSON.parse(json.stdoutText).error.message).toBe('run `wsm auth login --profile ci -w staging-uuid`');
  });

  it("Output's stderr lines: warnings, notices and the ✓ line", () => {
    const io = createTestIO();
    const output = createOutput(io, { format: 'table', quiet: false, target: { baseUrl: 'http://h/api/v3' } });
    output.warn('no workspace chosen: run `wsm workspace use`');
    output.done('created template 4: run `wsm templates sync --wait --template 4` for the review');
    expect(io.stderrText).toBe(
      'warning: no workspace chosen: run `wsm workspace use --base-url http://h/api/v3`\n' +
        '✓ created template 4: run `wsm templates sync --wait --template 4 --base-url http://h/api/v3` for the review\n',
    );
  });
});
