// After an import's --wait, on a server whose contacts show no groups, the group list is read to
// say the groups the import did not create. When that read fails, the warning says why in the
// words every other failure is said in (cli/error-report.ts), whatever was thrown: never
// "undefined" for a thrown value that is no Error.
import { describe, expect, it } from 'vitest';
import type { WsmClient } from '../../src/api/client.js';
import { NotFoundError } from '../../src/api/errors.js';
import type { Context } from '../../src/cli/context.js';
import { describeError } from '../../src/cli/error-report.js';
import { createTestIO } from '../../src/cli/io.js';
import { createOutput } from '../../src/cli/output.js';
import { SentColumns, sayUnshownAfterImport } from '../../src/commands/imports/unshown-after.js';

/** A client whose contacts show no groups, and whose group list fails with `thrown`. */
function failingGroups(thrown: unknown): WsmClient {
  return {
    contacts: { list: async () => ({ data: [{ id: 1, number: '14155550101', name: 'Ann', status: true }] }) },
    groups: {
      // biome-ignore lint/correctness/useYield: the list fails before its first group
      list: async function* () {
        throw thrown;
      },
    },
  } as unknown as WsmClient;
}

async function warningAfterImport(thrown: unknown): Promise<string> {
  const io = createTestIO();
  const ctx = {
    io,
    globals: { verbose: false },
    output: createOutput(io, { format: 'table', quiet: false }),
    knownBaseUrl: () => 'http://127.0.0.1:9/api/v3',
    knownSettings: () => undefined,
  } as unknown as Context;
  const sent = new SentColumns();
  sent.groups.add('VIP');
  await sayUnshownAfterImport(ctx, failingGroups(thrown), 'people.csv', 5, sent);
  return io.stderrText;
}

describe('the check of groups after an import, when the group list cannot be read', () => {
  it('says a thrown value that is no Error as it is, never "undefined"', async () => {
    const stderr = await warningAfterImport('the list answered nothing');
    expect(stderr).toBe(
      'warning: the groups and custom fields of people.csv were not checked after the import: the list answered nothing\n',
    );
  });

  it("says a server's refusal as the command's own error line would", async () => {
    const refused = new NotFoundError({
      status: 404,
      body: { message: 'Not Found' },
      headers: {},
      method: 'GET',
      url: 'http://127.0.0.1:9/api/v3/workspaces/2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f/contact-groups',
    });
    const stderr = await warningAfterImport(refused);
    const { text } = describeError(refused, { env: {}, secrets: () => [], baseUrl: 'http://127.0.0.1:9/api/v3' });
    expect(stderr).toBe(
      `warning: the groups and custom fields of people.csv were not checked after the import: ${text.replace(/^error: /, '')}`,
    );
  });
});
