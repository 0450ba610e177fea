// `wsm mcp`: declarations only; the verb (and the MCP SDK) load when it runs.
import type { Command } from 'commander';
import { AGENT_RESOURCES } from '../api/descriptions/catalog.js';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const MCP_FLAGS = {
  readOnly: { flags: '--read-only', description: 'expose only the tools that change nothing (list, get, diff, pull)' },
  tools: { flags: '--tools <names>', description: 'only these tools, comma-separated; * matches any text (contacts.*,templates.sync)' },
  toolsets: {
    flags: '--toolsets <names>',
    description: `only these groups of tools, comma-separated: a resource (${AGENT_RESOURCES.join(', ')}), workspace_file or history (the change journal); a name matching nothing is exit 2`,
  },
  listTools: { flags: '--list-tools', description: 'print the tools this selection exposes and exit (no server, no request)' },
  http: { flags: '--http', description: 'serve MCP over Streamable HTTP at /mcp instead of stdio' },
  host: {
    flags: '--host <host>',
    description: 'with --http: address to listen on (default 127.0.0.1; off loopback a bearer token is required)',
  },
  port: { flags: '--port <port>', description: 'with --http: port to listen on (default 8765; 0 picks a free one)' },
  authToken: {
    flags: '--auth-token <token>',
    description: 'with --http: the bearer token clients must send (default: none on loopback, generated and printed off it)',
  },
} as const;

export const mcp = verbSpec({
  name: 'mcp',
  description: SUMMARIES.mcp,
  flags: MCP_FLAGS,
  // Lines under 60 columns: commander does not wrap this text, and help must fit a 60-column terminal.
  configure: (c) =>
    c.addHelpText(
      'after',
      "\nThe server speaks MCP on stdin/stdout (--http: over HTTP)\nand uses the profile, --profile, --base-url, -w and WSM_*\nsettings like every command. docs/mcp.md shows an MCP\nclient's configuration.",
    ),
  examples: [
    'wsm mcp',
    'wsm mcp --read-only',
    'wsm mcp --tools "contacts.*,templates.sync" --list-tools',
    'wsm mcp --toolsets contacts,workspace_file --profile staging',
    'wsm mcp --http --port 8765',
    'wsm mcp --http --host 0.0.0.0 --auth-token "$MCP_TOKEN"',
  ],
  load: () => import('./mcp/run.js'),
});

export function registerMcp(program: Command): void {
  addVerb(program, mcp);
}
