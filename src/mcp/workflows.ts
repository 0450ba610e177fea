// The tools that are CLI workflows rather than one API operation: the contact import (checked
// upload, then the wait), the template sync with its wait, and the workspace file's
// (workspace-file-tools.ts). Each calls the CLI verb's own `run` with the call's Context (call.ts)
// and returns its data, so the checks, waits, messages and exit codes are the CLI's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { UsageError, WaitTimedOutError } from '../cli/errors.js';
import type { ToolCall, ToolSpec } from './tool.js';
import { confirm, messages } from './workflow-args.js';
import { historyList, historyUndo } from './history-tools.js';
import { workspaceFileApply, workspaceFileDiff, workspaceFilePull } from './workspace-file-tools.js';

const duration = (fallback: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?(ms|s|m|h)?$/, 'a duration such as 30s, 5m or 1h')
    .default(fallback);
/**
 * How long a tool call waits by default: under the 60 s a client commonly allows a request (the
 * TypeScript SDK's default). Longer waits come back as a handle to call again with (`resume`),
 * and progress is sent every few seconds meanwhile (server.ts) for clients that reset on it.
 */
const MCP_WAIT = '45s';
const resumeOutput = z
  .object({ tool: z.string(), arguments: z.looseObject({}) })
  .optional()
  .describe('When the wait ended first: call tool with arguments to wait on.');

// ---------------------------------------------------------------- contacts.import

const importInput = z.strictObject({
  file: z.string().min(1).optional().describe('Path of a CSV file on the machine this MCP server runs on.'),
  csv: z.string().min(1).optional().describe('The CSV itself (header line first, a `number` column), when there is no file.'),
  name: z.string().min(1).optional().describe('Name of the import (default: the file name).'),
  group: z.number().int().positive().optional().describe('Id of a contact group the imported contacts join.'),
  wait: z
    .boolean()
    .default(true)
    .describe('Wait until the server has processed every row, sending progress; false returns after the upload.'),
  import_id: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Keep following an import already uploaded (the id a call returned in resume) instead of uploading a file.'),
  timeout: duration(MCP_WAIT).describe('With wait: stop waiting after this long and return a resume handle (the import goes on).'),
  poll_interval: duration('1s').describe('With wait: time between polls.'),
  max_failures: z
    .string()
    .regex(/^\d+%?$/)
    .optional()
    .describe('Failed rows tolerated (a number, or a share such as 1%) before the call fails; default 0.'),
  strict: z.boolean().default(false).describe('Check every row before sending and send nothing if one is invalid.'),
  confirm,
});

/** A wait that ran out of time: the id it waited on, from the error's sentence (`import 12 still processing: …`). */
function timedOutImport(error: unknown): string | undefined {
  return error instanceof WaitTimedOutError ? /\bimport (\S+) still\b/.exec(error.message)?.[1] : undefined;
}

/** `imports get --wait`: follows an import already uploaded; its record, or a resume handle when the time runs out. */
async function followImport(call: ToolCall, args: z.output<typeof importInput>, id: number): Promise<Record<string, unknown>> {
  const [{ parseWaitFlags, reportOutcome, untilImportInterrupted, waitForImport }, { workspaceClient }] = await Promise.all([
    import('../commands/imports/wait.js'),
    import('../commands/shared/verb.js'),
  ]);
  const flags = parseWaitFlags({ timeout: args.timeout, interval: args.poll_interval, maxFailures: args.max_failures });
  const client = await workspaceClient(call.ctx);
  const final = await untilImportInterrupted(call.ctx, id, (signal) => waitForImport(call.ctx, client, id, flags, signal));
  reportOutcome(call.ctx, final, flags.maxFailures);
  return { import: final, messages: call.messages() };
}

async function importFile(args: z.output<typeof importInput>): Promise<{ path: string; done: () => Promise<void> }> {
  if ((args.file === undefined) === (args.csv === undefined))
    throw new UsageError('give the contacts as `file` (a path) or as `csv` (the text), one of the two');
  if (args.file !== undefined) return { path: args.file, done: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'wsm-mcp-'));
  // The name keeps its extension (`.xlsx` is read as a workbook) but can never climb out of the folder.
  const path = join(dir, args.name?.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'contacts.csv');
  await writeFile(path, args.csv!, { mode: 0o600 });
  return { path, done: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * What the journal says of a CSV given as text: what the agent gave (`people.csv (csv text, 2
 * rows)`), never the temporary file of this machine it was written to.
 */
async function csvTextGiven(csv: string, name: string | undefined): Promise<string> {
  const [{ csvTextRows }, { countOf }] = await Promise.all([import('../api/import-csv.js'), import('../cli/text.js')]);
  const rows = Math.max(0, csvTextRows(csv).items.length - 1);
  return `${name !== undefined ? `${name} ` : ''}(csv text, ${countOf(rows, 'row')})`;
}

const contactsImport: ToolSpec = {
  name: 'contacts.import',
  toolset: 'contacts',
  title: 'Import contacts from a CSV',
  description:
    'Uploads a CSV of contacts (a `number` column; name, email, gender, custom fields) after checking its header and encoding, ' +
    'then (wait: true) follows the import until the server has processed it, sending progress. Each row creates or updates a ' +
    'contact. Cancelling stops the wait, not the import: it keeps running on the server (read it with imports.get).',
  input: importInput,
  output: z.object({
    import: z
      .looseObject({})
      .optional()
      .describe('The import record: id, status, processed_rows of total_rows, failed rows and their errors.'),
    resume: resumeOutput,
    messages,
  }),
  hints: { readOnly: false, destructive: true, idempotent: false },
  published: true,
  long: true,
  confirm: (raw) => {
    const args = raw as z.output<typeof importInput>;
    // Following an import already made changes nothing more.
    if (args.import_id !== undefined) return undefined;
    return `importing ${args.file ?? 'the CSV given'} creates or updates one contact per row of the workspace`;
  },
  async run(raw, call) {
    const args = raw as z.output<typeof importInput>;
    try {
      if (args.import_id !== undefined) return await followImport(call, args, args.import_id);
      return await uploadAndFollow(call, args);
    } catch (error) {
      const id = timedOutImport(error);
      if (id === undefined) throw error;
      return {
        resume: { tool: 'contacts.import', arguments: { import_id: Number(id), timeout: args.timeout } },
        messages: [
          ...call.messages(),
          `import ${id} is still running after ${args.timeout}: call contacts.import with import_id ${id} to keep following it`,
        ],
      };
    }
  },
};

async function uploadAndFollow(call: ToolCall, args: z.output<typeof importInput>): Promise<Record<string, unknown>> {
  {
    const file = await importFile(args);
    // The CSV given as text was written to a temporary file the agent never named.
    const named = args.name ?? 'the CSV given';
    if (args.csv !== undefined) {
      call.nameFile(file.path, named);
      const given = await csvTextGiven(args.csv, args.name);
      call.ctx.journalCommand = `wsm mcp: contacts.import ${given}`;
      call.ctx.journalSummary = `contacts.import ${given}`;
    } else call.ctx.journalCommand = `wsm mcp: contacts.import ${file.path}`;
    try {
      const { settleUpload, uploadData, uploadImport } = await import('../commands/imports/upload.js');
      const { parseUploadFlags } = await import('../commands/imports/upload-flags.js');
      // As the command line gives them: a value as text, a switch present or absent.
      const flags = parseUploadFlags(file.path, {
        name: args.name,
        group: args.group === undefined ? undefined : String(args.group),
        wait: args.wait || undefined,
        strict: args.strict || undefined,
        timeout: args.timeout,
        interval: args.poll_interval,
        maxFailures: args.max_failures,
      });
      const result = await uploadImport(call.ctx, flags);
      await settleUpload(call.ctx, result, flags);
      return { import: uploadData(result), messages: call.messages() };
    } catch (error) {
      if (error instanceof Error && args.csv !== undefined) error.message = error.message.replaceAll(file.path, named);
      throw error;
    } finally {
      await file.done();
    }
  }
}

// ---------------------------------------------------------------- templates.sync

const syncInput = z.strictObject({
  wait: z
    .boolean()
    .default(false)
    .describe('Sync again until no template is PENDING (or every template named is decided), sending progress.'),
  templates: z
    .array(z.number().int().positive())
    .optional()
    .describe('Ids of the templates to follow; default: those PENDING before the sync, where the server lists templates.'),
  fail_on_rejected: z.boolean().default(false).describe('Fail (exit 7) when a template followed ends REJECTED.'),
  timeout: duration(MCP_WAIT).describe(
    'With wait: stop waiting after this long and return a resume handle (the review goes on at the provider).',
  ),
  poll_interval: duration('5s').describe('With wait: time between syncs.'),
});

const templateOutcome = z.looseObject({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  rejection_reason: z.string().nullable(),
});

const templatesSync: ToolSpec = {
  name: 'templates.sync',
  toolset: 'templates',
  title: 'Sync template statuses with the provider',
  description:
    "Fetches the provider's review of every PENDING template and records APPROVED or REJECTED. With wait: true, syncs " +
    'again until nothing is PENDING, sending progress; cancelling stops the wait, the review goes on. Returns the followed ' +
    "templates' statuses, or the sync's answer when none is followed.",
  input: syncInput,
  output: z.object({
    templates: z.array(templateOutcome).optional(),
    sync: z.looseObject({ outcome: z.enum(['synced', 'nothing_pending']), message: z.string() }).optional(),
    resume: resumeOutput,
    messages,
  }),
  hints: { readOnly: false, destructive: false, idempotent: true },
  published: true,
  long: true,
  async run(raw, call) {
    const args = raw as z.output<typeof syncInput>;
    const sync = await import('../commands/templates/sync.js');
    // As the command line gives them: a value as text, a switch present or absent.
    const options = await sync.parse(
      {
        args: [],
        opts: {
          wait: args.wait || undefined,
          failOnRejected: args.fail_on_rejected || undefined,
          template: args.templates?.map(String),
          timeout: args.timeout,
          interval: args.poll_interval,
        },
      },
      call.ctx,
    );
    let result: Awaited<ReturnType<typeof sync.run>> | undefined;
    try {
      result = await sync.run(call.ctx, options);
      sync.settle(call.ctx, result, options);
    } catch (error) {
      if (!(error instanceof WaitTimedOutError)) throw error;
      // The review goes on at the provider: a handle to wait again, with the statuses read so far.
      const again = {
        wait: true,
        ...(args.templates ? { templates: args.templates } : {}),
        fail_on_rejected: args.fail_on_rejected,
        timeout: args.timeout,
      };
      return {
        ...(result !== undefined && 'rows' in result ? { templates: result.rows } : {}),
        resume: { tool: 'templates.sync', arguments: again },
        messages: [
          ...call.messages(),
          `templates are still PENDING after ${args.timeout}: call templates.sync with resume's arguments to keep waiting`,
        ],
      };
    }
    return 'rows' in result
      ? { templates: result.rows, messages: call.messages() }
      : { sync: sync.syncOutcome(result.answer), messages: call.messages() };
  },
};

export const WORKFLOW_TOOLS: readonly ToolSpec[] = [
  contactsImport,
  historyList,
  historyUndo,
  templatesSync,
  workspaceFilePull,
  workspaceFileDiff,
  workspaceFileApply,
];
