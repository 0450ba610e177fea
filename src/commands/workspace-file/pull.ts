// `wsm pull [-o yaml|json] [-f FILE]`: the workspace as a workspace file, which `wsm diff` then
// finds identical. Items are sorted by name, so pulls of two workspaces with the same
// configuration (staging, production) give the same text whatever their ids.
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from 'yaml';
import { WORKSPACE_SECTIONS, type WorkspaceSection } from '../../api/schemas/index.js';
import { UsageError } from '../../cli/errors.js';
import { replaceFile } from '../../cli/replace-file.js';
import { jsonText } from '../../cli/text.js';
import { packageFile } from '../../cli/version.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { workspaceClient } from '../shared/verb.js';
import type { PULL_FLAGS } from '../pull.js';
import { observe } from './observe.js';
import type { Observation } from './plan.js';

/** dist/workspace-file.schema.json of this installation (written by scripts/build-schema.mjs). */
const SCHEMA_PATH = fileURLToPath(packageFile('dist/workspace-file.schema.json'));

/**
 * How the pulled file names its schema: relative to the file when wsm is installed in the
 * project the file lives in (portable across checkouts), else not at all. The file is meant for
 * version control: a path on this machine (a global install, a home directory) breaks every
 * other checkout and tells the reader where one person keeps their tools.
 */
export function schemaReference(outputDir: string, schemaPath = SCHEMA_PATH): string | undefined {
  const modules = schemaPath.lastIndexOf(`${sep}node_modules${sep}`);
  const project = modules >= 0 ? schemaPath.slice(0, modules) : resolve(dirname(schemaPath), '..');
  const inside = outputDir === project || outputDir.startsWith(project + sep);
  if (!inside) return undefined;
  const path = relative(outputDir, schemaPath).split(sep).join('/');
  return isAbsolute(path) || path.startsWith('../') ? path : `./${path}`;
}

/** The sections the server could list, as file entries sorted by identity; the built-in role left out. */
export function pulledFile(observation: Observation): Partial<Record<WorkspaceSection, unknown[]>> {
  const file: Partial<Record<WorkspaceSection, unknown[]>> = {};
  for (const section of WORKSPACE_SECTIONS) {
    const view = observation[section];
    if (!view?.complete) continue;
    const items = view.items.filter((item) => !item.builtIn).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    file[section] = items.map((item) => item.entry);
  }
  return file;
}

export function renderPulled(file: Record<string, unknown>, format: 'yaml' | 'json', schema: string | undefined): string {
  if (format === 'json') return jsonText(schema === undefined ? file : { $schema: schema, ...file }, true) + '\n';
  const doc = new Document(file);
  if (schema !== undefined) doc.commentBefore = ` yaml-language-server: $schema=${schema}`;
  return doc.toString({ lineWidth: 0 });
}

function formatOf(output: string, target: string | undefined): 'yaml' | 'json' {
  if (output === 'yaml' || output === 'json') return output;
  if (output !== 'table') throw new UsageError(`wsm pull prints yaml or json, not ${output}`);
  return target !== undefined && extname(target).toLowerCase() === '.json' ? 'json' : 'yaml';
}

export interface PullOptions {
  format: 'yaml' | 'json';
  /** Written to this file instead of printed. */
  file?: string;
}

/** The workspace file: its text, and the file it was written to when one was asked for. */
export interface Pulled {
  text: string;
  file?: string;
}

export function parse({ opts }: CommandLine<typeof PULL_FLAGS>, ctx: Context): PullOptions {
  return { format: formatOf(ctx.globals.output, opts.file), ...(opts.file !== undefined ? { file: opts.file } : {}) };
}

export async function run(ctx: Context, { format, file }: PullOptions): Promise<Pulled> {
  const client = await workspaceClient(ctx);
  const { observation } = await observe(client, WORKSPACE_SECTIONS);
  for (const section of WORKSPACE_SECTIONS) {
    if (observation[section]?.complete) continue;
    ctx.output.warn(`this server cannot list ${section}: the section is left out, and a file without it leaves ${section} alone`);
  }
  const outputDir = file === undefined ? process.cwd() : dirname(resolve(file));
  const text = renderPulled(pulledFile(observation), format, schemaReference(outputDir));
  if (file === undefined) return { text };
  await replaceFile(file, text);
  return { text, file };
}

export function render(ctx: Context, pulled: Pulled): void {
  if (pulled.file === undefined) ctx.output.text(pulled.text);
  else ctx.output.done(`wrote ${pulled.file}`);
}
