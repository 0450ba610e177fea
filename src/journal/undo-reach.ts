// What `wsm undo` can bring back of a deleted record, per resource: said by the delete's question
// (`Delete label 3? wsm undo can make it again, with a new id`), by the MCP delete tools' answer
// asking for confirm, and used by the undo's plan itself (resource-inverse.ts), so that what a
// delete promises is what an undo does.
import type { ResourceKey } from '../api/descriptions/catalog.js';
import type { Context } from '../cli/context.js';
import { journalOff } from './journal.js';

/** A delete that cannot be made again, whatever the server offers, and why. */
export const IRREVERSIBLE_DELETES: Partial<Record<ResourceKey, string>> = {
  templates: 'a template deleted at the provider cannot be brought back (a new one would go through review again)',
  imports: "the import's file is not kept (the contacts it created or updated stay as they are)",
};

/** What a record made again does not get back. */
export const LOST_WITH_DELETE: Partial<Record<ResourceKey, string>> = {
  groups: 'the contacts that were in it are not put back in it',
  fields: "the contacts' values of the field are not put back",
};

/**
 * What an undo can do of a delete of `resource`, said after the question: `wsm undo can make it
 * again, with a new id` (`them`, `new ids` for `many`), or why it cannot be undone (`This cannot be undone: ...`), as a sentence ending a question.
 * With WSM_HISTORY=off nothing is kept to undo.
 */
export function deleteUndoNote(resource: ResourceKey, ctx: Context, many = false): string {
  if (journalOff(ctx)) return 'This cannot be undone (WSM_HISTORY=off keeps no journal)';
  const irreversible = IRREVERSIBLE_DELETES[resource];
  if (irreversible !== undefined) return `This cannot be undone: ${irreversible}`;
  const made = `wsm undo can make ${many ? 'them' : 'it'} again, with ${many ? 'new ids' : 'a new id'}`;
  if (resource === 'contacts') return `${made} and all ${many ? 'their' : 'its'} values`;
  const lost = LOST_WITH_DELETE[resource];
  return lost === undefined ? made : `${made} (${lost})`;
}
