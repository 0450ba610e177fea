import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIStatusError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type StatusErrorInit,
} from '../../src/api/errors.js';
import { MissingWorkspaceError, RequestValidationError, UnsupportedEndpointError } from '../../src/api/client.js';
import { CancelledError, CliError, NotLoggedInError, RejectedTemplatesError, UsageError, exitCodeFor } from '../../src/cli/errors.js';
import { handleError } from '../../src/cli/error-report.js';
import { createTestIO } from '../../src/cli/io.js';

const init = (status: number, body: unknown = { message: 'Nope.' }): StatusErrorInit => ({
  status,
  body,
  headers: {},
  method: 'GET',
  url: 'http://127.0.0.1:8080/api/v3/workspaces/ws/contacts/9',
});

describe('exitCodeFor', () => {
  it.each([
    ['AuthenticationError 401', new AuthenticationError(init(401)), 3],
    ['PermissionDeniedError 403', new PermissionDeniedError(init(403)), 3],
    ['NotFoundError 404', new NotFoundError(init(404)), 4],
    ['UnprocessableEntityError 422', new UnprocessableEntityError(init(422)), 5],
    ['RateLimitError 429', new RateLimitError(init(429)), 6],
    ['InternalServerError 500', new InternalServerError(init(500)), 6],
    ['InternalServerError 503', new InternalServerError(init(503)), 6],
    ['APIConnectionError', new APIConnectionError(), 6],
    ['APIConnectionTimeoutError', new APIConnectionTimeoutError(), 6],
    ['BadRequestError 400', new BadRequestError(init(400)), 1],
    ['MethodNotAllowedError 405', new MethodNotAllowedError(init(405)), 1],
    ['ConflictError 409', new ConflictError(init(409)), 1],
    ['PayloadTooLargeError 413', new PayloadTooLargeError(init(413)), 1],
    ['plain APIStatusError 418', new APIStatusError(init(418)), 1],
    ['UsageError', new UsageError('bad'), 2],
    ['NotLoggedInError', new NotLoggedInError(), 2],
    ['CancelledError', new CancelledError(), 2],
    ['RequestValidationError of a file', new RequestValidationError('bad file'), 2],
    ['RejectedTemplatesError', new RejectedTemplatesError('rejected'), 7],
    ['CliError default', new CliError('x'), 1],
    ['client RequestValidationError', new RequestValidationError('the contact is invalid: nothing was sent', {}), 2],
    ['client MissingWorkspaceError', new MissingWorkspaceError(), 2],
    ['client UnsupportedEndpointError', new UnsupportedEndpointError('getting a contact', new NotFoundError(init(404))), 1],
    ['commander usage error', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), 2],
    ['commander --help', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), 0],
    ['commander --version', new CommanderError(0, 'commander.version', '0.1.0'), 0],
    ['TypeError', new TypeError('boom'), 1],
    ['a thrown string', 'boom', 1],
  ])('%s -> %i', (_name, err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });
});

describe('handleError', () => {
  const sink = (extra: { outputFormat?: string; env?: Record<string, string>; secrets?: string[] } = {}) => {
    const io = createTestIO();
    return { io, sink: { io, env: extra.env ?? {}, outputFormat: extra.outputFormat, secrets: () => extra.secrets ?? [] } };
  };

  it('prints one error line, no stack, nothing on stdout', () => {
    const { io, sink: s } = sink();
    expect(handleError(new NotFoundError(init(404, { message: 'Resource not found.', status: 404 })), s)).toBe(4);
    expect(io.stderrText).toBe('error: contact 9 not found\n');
    expect(io.stdoutText).toBe('');
  });

  it('lists the field errors of a 422 under the sentence', () => {
    const { io, sink: s } = sink();
    const body = {
      message: 'Validation error',
      errors: { number: ['The number has already been taken.'], 'body.text': ['Required.', 'Too short.'] },
    };
    expect(handleError(new UnprocessableEntityError({ ...init(422, body), method: 'POST' }), s)).toBe(5);
    expect(io.stderrText.split('\n')).toEqual([
      'error: the server rejected the contact:',
      '  number: The number has already been taken.',
      '  body.text: Required.',
      '  body.text: Too short.',
      '',
    ]);
  });

  it("with -o json prints the error document: stderr's sentence, the exit code, the status, the fields and the server's body", () => {
    const { io, sink: s } = sink({ outputFormat: 'json' });
    const body = { message: 'Validation error', errors: { name: ['Required.'] } };
    expect(handleError(new UnprocessableEntityError(init(422, body)), s)).toBe(5);
    expect(JSON.parse(io.stdoutText)).toEqual({
      error: { message: 'the server rejected the contact:', exit_code: 5, status: 422, fields: { name: ['Required.'] }, server: body },
    });
  });

  it('with -o json a 404 says what stderr says, with the server body beside it', () => {
    const { io, sink: s } = sink({ outputFormat: 'ndjson' });
    expect(handleError(new NotFoundError(init(404, { message: 'Resource not found.', status: 404 })), s)).toBe(4);
    expect(io.stderrText).toBe('error: contact 9 not found\n');
    expect(io.stdoutText).toBe(
      '{"error":{"message":"contact 9 not found","exit_code":4,"status":404,"server":{"message":"Resource not found.","status":404}}}\n',
    );
  });

  it('prints local validation errors with their fields', () => {
    const { io, sink: s } = sink({ outputFormat: 'json' });
    expect(handleError(new RequestValidationError('invalid template file', { name: ['Required.'] }), s)).toBe(2);
    expect(io.stderrText).toBe('error: invalid template file\n  name: Required.\n');
    expect(JSON.parse(io.stdoutText)).toEqual({
      error: { message: 'invalid template file', exit_code: 2, fields: { name: ['Required.'] } },
    });
  });

  it("prints the client's local validation errors with their fields", () => {
    const { io, sink: s } = sink({ outputFormat: 'json' });
    const err = new RequestValidationError('the contact is invalid: nothing was sent', { number: ['Required.'] });
    expect(handleError(err, s)).toBe(2);
    expect(io.stderrText).toBe('error: the contact is invalid: nothing was sent\n  number: Required.\n');
    expect(JSON.parse(io.stdoutText)).toEqual({
      error: { message: 'the contact is invalid: nothing was sent', exit_code: 2, fields: { number: ['Required.'] } },
    });
  });

  it('tells how to choose a workspace when the client has none', () => {
    const { io, sink: s } = sink();
    expect(handleError(new MissingWorkspaceError(), s)).toBe(2);
    expect(io.stderrText).toMatch(/^error: no workspace: pass -w <uuid>/);
  });

  it('never prints a known token', () => {
    const { io, sink: s } = sink({ secrets: ['wsm_supersecret_token'] });
    handleError(new Error('request to http://x?t=wsm_supersecret_token failed'), s);
    expect(io.stderrText).not.toContain('wsm_supersecret_token');
    expect(io.stderrText).toContain('***');
  });

  it('says a 401 means the token was rejected', () => {
    const { io, sink: s } = sink();
    expect(handleError(new AuthenticationError(init(401, { message: 'Unauthenticated.' })), s)).toBe(3);
    expect(io.stderrText).toBe('error: the server rejected the token: run `wsm auth login`\n');
  });

  it('a rejected token or a workspace not found names where it came from: flag, variable, or profile and its file', () => {
    const settings = (source: 'flag' | 'env' | 'profile') => ({
      profileName: 'ci',
      configPath: '/home/ann/.config/wsm/config.json',
      workspace: 'ws',
      sources: { token: source, workspace: source },
    });
    const said = (err: Error, source: 'flag' | 'env' | 'profile') => {
      const { io, sink: s } = sink();
      handleError(err, { ...s, settings: settings(source) });
      return io.stderrText;
    };
    const unauthenticated = new AuthenticationError(init(401, { message: 'Unauthenticated.' }));
    expect(said(unauthenticated, 'flag')).toBe('error: the server rejected the token (from --token): pass --token <token>\n');
    expect(said(unauthenticated, 'env')).toBe('error: the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>\n');
    expect(said(unauthenticated, 'profile')).toBe(
      'error: the server rejected the token (from profile "ci" in /home/ann/.config/wsm/config.json): run `wsm auth login`\n',
    );
    const notMine = new NotFoundError({
      ...init(404, { message: 'Resource not found.', status: 404 }),
      url: 'http://127.0.0.1:8080/api/v3/workspaces/ws/labels',
    });
    expect(said(notMine, 'env')).toBe('error: workspace ws (from WSM_WORKSPACE) not found or not yours\n');
    expect(said(notMine, 'profile')).toBe(
      'error: workspace ws (from profile "ci" in /home/ann/.config/wsm/config.json) not found or not yours\n',
    );
  });

  it('names the connection failure and the URL; for 127.0.0.1 suggests wsm serve', () => {
    const refused = () =>
      new APIConnectionError('Connection error.', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const remote = sink();
    expect(handleError(refused(), { ...remote.sink, baseUrl: 'https://api.example.com/api/v3' })).toBe(6);
    expect(remote.io.stderrText).toBe('error: cannot reach https://api.example.com/api/v3 (connection refused)\n');
    const local = sink();
    handleError(refused(), { ...local.sink, baseUrl: 'http://127.0.0.1:8080/api/v3' });
    expect(local.io.stderrText).toBe(
      'error: cannot reach http://127.0.0.1:8080/api/v3 (connection refused): no server is listening there; start one with `wsm serve`\n',
    );
  });

  it('adds the stack only with WSM_DEBUG=1', () => {
    const quiet = sink();
    handleError(new Error('boom'), quiet.sink);
    expect(quiet.io.stderrText).toBe('error: boom\n');
    const debug = sink({ env: { WSM_DEBUG: '1' } });
    handleError(new Error('boom'), debug.sink);
    expect(debug.io.stderrText).toMatch(/^error: boom\nError: boom\n\s+at /);
  });

  it("prints commander's errors itself, on one line", () => {
    const { io, sink: s } = sink();
    expect(handleError(new CommanderError(1, 'commander.unknownCommand', "error: unknown command 'x'\n(Did you mean y?)"), s)).toBe(2);
    expect(io.stderrText).toBe("error: unknown command 'x' (did you mean y?)\n");
  });
});
