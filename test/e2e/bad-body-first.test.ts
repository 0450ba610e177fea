/**
 * A body the client refuses is the error a user sees even before logging in or choosing a
 * workspace: the check needs no server, so a script (or a person at a fresh install) learns what
 * is wrong with the flags at once, as wsm did before its verbs left the check to the client.
 * With no config; no server is started and none is reached. The binary runs the first contacts
 * create and every command's case in the list; the other runs are in-process (in-process.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup, testEnv, wsm } from './processes.js';

let dir: string;
let env: NodeJS.ProcessEnv;
// Nothing listens on the discard port: a request sent would be exit 6, not the body's exit 2.
const NO_WORKSPACE = ['--base-url', 'http://127.0.0.1:9/api/v3', '--token', 'wsm_unused'];
const WS = '11111111-2222-3333-4444-555555555555';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-bad-body-first-'));
  env = testEnv(dir);
});

afterAll(() => cleanup(dir));

const CONTACT =
  'error: the contact is invalid: nothing was sent\n' +
  '  --number: The number must be a phone number of 7 to 15 digits.\n' +
  '  --email: The email field must be a valid email address.\n';

describe('a bad body is reported before a missing login or workspace', () => {
  it('not logged in: contacts create names the bad flags, exit 2, and -o json carries the fields', async () => {
    const res = await wsm(env, ['contacts', 'create', '--number', '1', '--email', 'bad']);
    expect(res).toEqual({ code: 2, stdout: '', stderr: CONTACT });
    const json = await wsmInProcess(env, ['contacts', 'create', '--number', '1', '--email', 'bad', '-o', 'json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        message: 'the contact is invalid: nothing was sent',
        exit_code: 2,
        fields: {
          number: ['The number must be a phone number of 7 to 15 digits.'],
          email: ['The email field must be a valid email address.'],
        },
      },
    });
  });

  it('not logged in: every command that sends a body it made (collections, templates, workspace, contacts update)', async () => {
    const cases: [string[], string][] = [
      [
        ['labels', 'create', '', '--color', 'nope'],
        'error: the label is invalid: nothing was sent\n  name: The name field is required.\n  --color: The color field must be a hex colour such as #1a2b3c.\n',
      ],
      [['groups', 'create', ''], 'error: the contact group is invalid: nothing was sent\n  name: The name field is required.\n'],
      [['roles', 'create', ''], 'error: the role is invalid: nothing was sent\n  name: The name field is required.\n'],
      [
        ['fields', 'create', 'Bad Name'],
        'error: the contact field is invalid: nothing was sent\n  name: The name field must contain only lowercase letters and underscores.\n',
      ],
      [
        ['groups', 'update', '1', '--name', ''],
        'error: the contact group is invalid: nothing was sent\n  --name: The name field is required.\n',
      ],
      [['workspace', 'create', ''], 'error: the workspace is invalid: nothing was sent\n  name: The name field is required.\n'],
      [
        ['templates', 'create', '--name', 'x', '--language', 'en', '--category', 'NOPE', '--body', 'hi'],
        'error: the template is invalid: nothing was sent\n  category: The selected category is invalid: it must be one of MARKETING, UTILITY, AUTHENTICATION.\n',
      ],
      [
        ['contacts', 'update', '1', '--name', 'X', '--email', 'bad'],
        'error: the contact is invalid: nothing was sent\n  --email: The email field must be a valid email address.\n',
      ],
      [['-w', WS, 'contacts', 'create', '--number', '1', '--email', 'bad'], CONTACT],
    ];
    for (const [argv, stderr] of cases) expect(await wsm(env, argv), argv.join(' ')).toEqual({ code: 2, stdout: '', stderr });
  });

  it('no workspace (base URL and token given): the body is refused, nothing is sent', async () => {
    const res = await wsmInProcess(env, [...NO_WORKSPACE, 'contacts', 'create', '--number', '1', '--email', 'bad']);
    expect(res).toEqual({ code: 2, stdout: '', stderr: CONTACT });
    const label = await wsmInProcess(env, [...NO_WORKSPACE, 'labels', 'create', '', '--color', 'x', '-o', 'json']);
    expect(label.code).toBe(2);
    expect(JSON.parse(label.stdout).error.fields).toEqual({
      name: ['The name field is required.'],
      color: ['The color field must be a hex colour such as #1a2b3c.'],
    });
  });

  it('contacts create: a bad body is reported before an avatar file that cannot be read, --gender in its words', async () => {
    const res = await wsmInProcess(env, [
      ...NO_WORKSPACE,
      'contacts',
      'create',
      '--number',
      '1',
      '--email',
      'bad',
      '--avatar',
      join(dir, 'none.png'),
    ]);
    expect(res).toEqual({ code: 2, stdout: '', stderr: CONTACT });
    const gender = await wsmInProcess(env, [
      'contacts',
      'create',
      '--number',
      '14155550100',
      '--gender',
      'robot',
      '--avatar',
      join(dir, 'none.png'),
    ]);
    expect(gender).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: the contact is invalid: nothing was sent\n  --gender takes one of male, female, other, got "robot"\n',
    });
    // A good body meets the file's problem, as before.
    const file = await wsmInProcess(env, ['contacts', 'create', '--number', '14155550100', '--avatar', join(dir, 'none.png')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toBe(`error: cannot read ${join(dir, 'none.png')} (ENOENT): nothing was sent\n`);
  });

  it('a good body still meets the missing login or workspace, with the sentence that says so', async () => {
    expect(await wsmInProcess(env, ['labels', 'create', 'VIP'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: not logged in: run `wsm auth login` or `wsm serve`\n',
    });
    expect(await wsmInProcess(env, [...NO_WORKSPACE, 'contacts', 'create', '--number', '14155550100'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: no workspace: pass -w <uuid>, set WSM_WORKSPACE, or run `wsm profile set workspace <uuid>`\n',
    });
    // A read comes before the body's check only where it always did: the contact read for its name.
    expect(await wsmInProcess(env, ['contacts', 'update', '1', '--inactive'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: not logged in: run `wsm auth login` or `wsm serve`\n',
    });
  });
});
