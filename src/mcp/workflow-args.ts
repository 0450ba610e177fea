// Arguments and results every workflow tool shares.
import * as z from 'zod';

export const confirm = z.boolean().optional().describe('true to do it; otherwise nothing is done.');
export const messages = z.array(z.string()).describe('What the CLI says on stderr: notices, warnings, `✓` lines.');
