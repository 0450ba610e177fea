/**
 * The contact groups an import row names (`contact_groups`, decisions.md §3), by name. A name the
 * workspace has is its group; a name it lacks is created when the uploader may create groups (a
 * backup restored into a new workspace brings its groups along), and otherwise fails the row,
 * saying what to do. Runs inside the batch's transaction: a batch rolled back takes its new
 * groups with it, so the names are looked up afresh for every batch.
 */
import type { GroupsRepository } from '../repositories/groups.js';

export type GroupLookup = { ok: true; ids: number[]; created: Array<{ id: number; name: string }> } | { ok: false; message: string };

/** `groups`: the app's repository (app.repositories.groups). */
export function createGroupResolver(groups: Pick<GroupsRepository, 'idHolding' | 'insert'>, workspaceId: string, mayCreate: boolean) {
  const known = new Map<string, number>();

  return {
    /** At the start of each batch. */
    forget(): void {
      known.clear();
    },

    resolve(names: string[]): GroupLookup {
      const ids: number[] = [];
      const missing: string[] = [];
      for (const name of names) {
        const id = known.get(name) ?? groups.idHolding(workspaceId, name);
        if (id === undefined) missing.push(name);
        else {
          known.set(name, id);
          ids.push(id);
        }
      }
      if (missing.length > 0 && !mayCreate) {
        const list = missing.map((name) => `"${name}"`).join(', ');
        const them = missing.length === 1 ? 'it' : 'them';
        return {
          ok: false,
          message: `The contact group${missing.length === 1 ? '' : 's'} ${list} ${missing.length === 1 ? 'does' : 'do'} not exist, and this import may not create ${them} (the uploader lacks contact_groups.create): create ${them} first.`,
        };
      }
      const created = missing.map((name) => groups.insert(workspaceId, { name }));
      for (const group of created) {
        known.set(group.name, group.id);
        ids.push(group.id);
      }
      return { ok: true, ids, created: created.map(({ id, name }) => ({ id, name })) };
    },
  };
}
