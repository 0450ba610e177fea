// Writes dist/workspace-file.schema.json: the JSON Schema of the workspace file of `wsm diff` and
// `wsm apply`, generated from the zod schemas the server validates with (src/api/schemas), so it
// ships in the package and `wsm pull` can point editors at it. Run by `npm run build`.
import { writeFileSync } from 'node:fs';

const { workspaceFileJsonSchema } = await import('../dist/api/schemas/workspace-file.js');
writeFileSync(new URL('../dist/workspace-file.schema.json', import.meta.url), JSON.stringify(workspaceFileJsonSchema(), null, 2) + '\n');
