/**
 * The loops over a sheet's rows in memory (the check, the hold pass, the scan for twins) give the
 * event loop its turns: a callback queued before one of them over 20,000 rows has run when it
 * ends. Without them the loop runs on microtasks alone and nothing queued (a timer, Ctrl-C, a
 * socket the server closed, so that an upload went into it) runs until it is over.
 */
import { describe, expect, it } from 'vitest';
import { csvTextRows } from '../../src/api/import-csv.js';
import { checkImportItems } from '../../src/cli/csv-check.js';
import { liveContacts } from '../../src/commands/contacts/plan.js';
import { passForHolds } from '../../src/commands/imports/hold-pass.js';
import { scanItems } from '../../src/commands/imports/hold-scan.js';

const text = `number,name\n${Array.from({ length: 20_000 }, (_, i) => `${14155500000 + i},${i === 0 ? '3.51E+12' : `Person ${i}`}`).join('\n')}\n`;
const { items } = csvTextRows(text);

/** Whether a callback queued for the event loop's next turn ran before `work` ended. */
async function turnedDuring(work: () => Promise<unknown>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await work();
  return turned;
}

describe("the loops over a sheet's rows in memory", () => {
  it('the check gives the event loop a turn', async () => {
    expect(await turnedDuring(() => checkImportItems(items, { source: 'big.xlsx' }))).toBe(true);
  });

  it('the hold pass gives the event loop a turn', async () => {
    expect(
      await turnedDuring(() => passForHolds({ items }, liveContacts([]), undefined, { applyFlagged: false }, { repeats: new Map() })),
    ).toBe(true);
  });

  it('the scan for numbers with leading zeros gives the event loop a turn', async () => {
    expect(await turnedDuring(() => scanItems(items))).toBe(true);
  });
});
