// The plain collections of the API (collection.ts): what is each one's own, its verbs' words and
// flags (each flag naming the body field it sets) and how its records print. The rest follows from
// its catalog entry and its description. Loaded when one of them runs or is asked for help.
import { permissionNames } from '../api/answers.js';
import type { CollectionCli } from '../api/descriptions/catalog.js';
import type { ContactField, ContactGroup, Label, Role } from '../api/schemas/index.js';
import { collectionCommand, type CollectionCommand } from './collection.js';

// The published API shows no role fields beyond `name`: permissions may be names, objects with a `name`, or
// not sent at all (unknown, which is not the same as none).
const permissionsOf = (role: Role) => permissionNames(role.permissions);

/**
 * By CLI name: an entry for each plain collection of the catalog, checked by tsc (step 6 of "Adding
 * a resource": a catalog entry with `collection: true` and no entry here does not compile).
 */
export const COLLECTIONS = {
  groups: collectionCommand<ContactGroup>({
    list: {
      description: 'list contact groups with their contact counts',
      examples: ['wsm groups list', 'wsm groups list --all -q'],
    },
    get: {
      description: 'show one contact group',
      args: [['<id>', 'group id']],
      examples: ['wsm groups get 3', 'wsm groups get 3 -o json'],
    },
    create: {
      description: 'create a contact group',
      args: [['<name>', 'group name, unique in the workspace', 'name']],
      examples: ['wsm groups create "VIP customers"', 'wsm groups create leads -q'],
    },
    update: {
      description: 'rename a contact group',
      args: [['<id>', 'group id']],
      flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
      examples: ['wsm groups update 3 --name "Gold customers"'],
    },
    describe: (g) => `${g.name} (id ${g.id}, ${g.contacts_count} contact${g.contacts_count === 1 ? '' : 's'})`,
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'contacts_count', header: 'CONTACTS' },
      { key: 'created_at', header: 'CREATED' },
    ],
  }),
  fields: collectionCommand<ContactField>({
    list: {
      description: 'list contact fields',
      examples: ['wsm fields list', 'wsm fields list --all -q'],
    },
    get: {
      description: 'show one contact field',
      args: [['<id>', 'field id']],
      examples: ['wsm fields get 2'],
    },
    create: {
      description: 'create a contact field',
      args: [['<name>', 'field name: lowercase letters and underscores', 'name']],
      examples: ['wsm fields create city', 'wsm fields create loyalty_tier -q'],
    },
    update: {
      description: 'rename a contact field',
      args: [['<id>', 'field id']],
      flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
      examples: ['wsm fields update 2 --name home_city'],
    },
    describe: (f) => `${f.name} (id ${f.id})`,
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'created_at', header: 'CREATED' },
    ],
  }),
  labels: collectionCommand<Label>({
    list: {
      description: 'list labels',
      examples: ['wsm labels list', 'wsm labels list --all -o csv'],
    },
    get: {
      description: 'show one label',
      args: [['<id>', 'label id']],
      examples: ['wsm labels get 4', 'wsm labels get 4 -o json'],
    },
    create: {
      description: 'create a label',
      args: [['<name>', 'label name, unique in the workspace', 'name']],
      flags: { color: { flags: '--color <hex>', description: 'colour such as #1a2b3c or #fc0', field: 'color' } },
      examples: ['wsm labels create urgent --color "#ff0000"', 'wsm labels create follow_up -q'],
    },
    update: {
      description: 'rename a label or change its colour (contacts keep the label)',
      args: [['<id>', 'label id']],
      flags: {
        name: { flags: '--name <name>', description: 'new name', field: 'name' },
        color: { flags: '--color <hex>', description: 'new colour such as #00aa00', field: 'color' },
      },
      examples: ['wsm labels update 4 --color "#00aa00"', 'wsm labels update 4 --name vip --color "#fc0"'],
    },
    describe: (l) => `${l.name} (id ${l.id})`,
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'color', header: 'COLOR' },
      { key: 'created_at', header: 'CREATED' },
    ],
  }),
  roles: collectionCommand<Role>({
    list: {
      description: 'list roles',
      examples: ['wsm roles list', 'wsm roles list -o json'],
    },
    get: {
      description: 'show one role with its permissions',
      args: [['<id>', 'role id']],
      examples: ['wsm roles get 2', 'wsm roles get 2 -o json | jq -r ".permissions[]"'],
    },
    create: {
      description: 'create a role',
      args: [['<name>', 'role name, unique in the workspace', 'name']],
      flags: {
        permission: {
          flags: '--permission <name>',
          description: 'permission such as contacts.view; repeat for several',
          repeatable: true,
          field: 'permissions',
        },
      },
      examples: ['wsm roles create agent', 'wsm roles create viewer --permission contacts.view --permission templates.view'],
    },
    update: {
      description: 'rename a role or replace its permissions',
      args: [['<id>', 'role id']],
      flags: {
        name: { flags: '--name <name>', description: 'new name', field: 'name' },
        permission: {
          flags: '--permission <name>',
          description: 'permission; repeat for several (replaces the whole list)',
          repeatable: true,
          field: 'permissions',
        },
      },
      examples: ['wsm roles update 2 --name supervisor', 'wsm roles update 2 --permission contacts.view --permission contacts.update'],
    },
    describe: (r) => `${r.name} (id ${r.id}, ${(r.permissions ?? []).length} permissions)`,
    columns: [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'permissions', header: 'PERMISSIONS', get: (r) => permissionsOf(r)?.length ?? 'unknown' },
    ],
    detail: [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'Name' },
      { key: 'permissions', header: 'Permissions', get: (r) => permissionsOf(r), show: (r) => permissionsOf(r)?.join(' ') ?? 'unknown' },
      { key: 'created_at', header: 'Created' },
      { key: 'updated_at', header: 'Updated' },
    ],
  }),
} satisfies Record<CollectionCli, CollectionCommand<never>>;
