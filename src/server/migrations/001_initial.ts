/**
 * The whole first schema. Every list is read by `(workspace_id, id)`; counts
 * that a list page needs are kept in `counters` by triggers, so no page request
 * ever runs COUNT(*) over a table.
 */
export const sql = /* sql */ `
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_by INTEGER,
  permissions TEXT NOT NULL,            -- JSON array: permissions enabled in this workspace
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT,
  timezone TEXT NOT NULL DEFAULT 'UTC',
  status INTEGER NOT NULL DEFAULT 1,
  client INTEGER NOT NULL DEFAULT 0,
  partner INTEGER NOT NULL DEFAULT 0,
  partner_permissions TEXT,             -- JSON array: defaults for workspaces this partner creates
  avatar_file TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY,          -- SHA-256 hex; the token itself is never stored
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);

CREATE TABLE roles (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  permissions TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX roles_ws_id ON roles (workspace_id, id);

CREATE TABLE memberships (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id INTEGER REFERENCES roles(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_ws_user ON memberships (workspace_id, user_id);

CREATE TABLE files (
  id TEXT PRIMARY KEY,                  -- random, unguessable: the public URL carries it
  content_type TEXT NOT NULL,
  data BLOB NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE contacts (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  number TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT,
  gender TEXT,
  status INTEGER NOT NULL DEFAULT 1,
  avatar_file TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, number)
);
CREATE INDEX contacts_ws_id ON contacts (workspace_id, id);

-- Substring search (decisions.md §3: name, number, email) through trigrams.
CREATE VIRTUAL TABLE contacts_fts USING fts5(
  name, number, email, content='contacts', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER contacts_fts_ai AFTER INSERT ON contacts BEGIN
  INSERT INTO contacts_fts (rowid, name, number, email) VALUES (new.id, new.name, new.number, coalesce(new.email, ''));
END;
CREATE TRIGGER contacts_fts_ad AFTER DELETE ON contacts BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name, number, email) VALUES ('delete', old.id, old.name, old.number, coalesce(old.email, ''));
END;
CREATE TRIGGER contacts_fts_au AFTER UPDATE OF name, number, email ON contacts BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name, number, email) VALUES ('delete', old.id, old.name, old.number, coalesce(old.email, ''));
  INSERT INTO contacts_fts (rowid, name, number, email) VALUES (new.id, new.name, new.number, coalesce(new.email, ''));
END;

CREATE TABLE contact_groups (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  contacts_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX contact_groups_ws_id ON contact_groups (workspace_id, id);

CREATE TABLE contact_group_members (
  group_id INTEGER NOT NULL REFERENCES contact_groups(id) ON DELETE CASCADE,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  PRIMARY KEY (contact_id, group_id)
) WITHOUT ROWID;
CREATE INDEX contact_group_members_group ON contact_group_members (group_id);
CREATE TRIGGER group_members_ai AFTER INSERT ON contact_group_members BEGIN
  UPDATE contact_groups SET contacts_count = contacts_count + 1 WHERE id = new.group_id;
END;
CREATE TRIGGER group_members_ad AFTER DELETE ON contact_group_members BEGIN
  UPDATE contact_groups SET contacts_count = contacts_count - 1 WHERE id = old.group_id;
END;

CREATE TABLE contact_fields (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX contact_fields_ws_id ON contact_fields (workspace_id, id);

CREATE TABLE contact_field_values (
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  field_id INTEGER NOT NULL REFERENCES contact_fields(id) ON DELETE CASCADE,
  value TEXT NOT NULL,
  PRIMARY KEY (contact_id, field_id)
) WITHOUT ROWID;
CREATE INDEX contact_field_values_field ON contact_field_values (field_id);

CREATE TABLE contact_imports (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  contact_group_id INTEGER REFERENCES contact_groups(id) ON DELETE SET NULL,
  file_name TEXT NOT NULL,
  stored_path TEXT NOT NULL,
  total_rows INTEGER NOT NULL DEFAULT 0,
  processed_rows INTEGER NOT NULL DEFAULT 0,
  created_count INTEGER NOT NULL DEFAULT 0,
  updated_count INTEGER NOT NULL DEFAULT 0,
  failed_count INTEGER NOT NULL DEFAULT 0,
  errors TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX contact_imports_ws_id ON contact_imports (workspace_id, id);
CREATE INDEX contact_imports_status ON contact_imports (status);

CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX labels_ws_id ON labels (workspace_id, id);

CREATE TABLE templates (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  language TEXT NOT NULL,
  category TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'PENDING',
  provider_id TEXT,
  rejection_reason TEXT,
  components TEXT NOT NULL,             -- JSON {header, body, footer, buttons}
  options TEXT NOT NULL DEFAULT '{}',   -- JSON of the category flags
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, name, language)
);
CREATE INDEX templates_ws_id ON templates (workspace_id, id);
CREATE INDEX templates_ws_status ON templates (workspace_id, status);

-- Deletions still owed to the template provider (decisions.md §5): durable, retried until done.
CREATE TABLE provider_outbox (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error TEXT,
  created_at TEXT NOT NULL
);

-- The simulated provider's own store: what "the remote side" knows, so it survives restarts.
CREATE TABLE simulated_provider_templates (
  provider_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  submitted_at TEXT NOT NULL,
  decision TEXT NOT NULL,               -- APPROVED or REJECTED, applied once the delay has passed
  reason TEXT,
  deleted INTEGER NOT NULL DEFAULT 0
);

-- Row counts per (workspace, table), kept by triggers: list pages read them instead of COUNT(*).
CREATE TABLE counters (
  workspace_id TEXT NOT NULL,
  resource TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, resource)
) WITHOUT ROWID;
${['contacts', 'contact_groups', 'contact_fields', 'contact_imports', 'labels', 'roles', 'templates']
  .map(
    (table) => `
CREATE TRIGGER ${table}_count_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO counters (workspace_id, resource, count) VALUES (new.workspace_id, '${table}', 1)
    ON CONFLICT (workspace_id, resource) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER ${table}_count_ad AFTER DELETE ON ${table} BEGIN
  UPDATE counters SET count = count - 1 WHERE workspace_id = old.workspace_id AND resource = '${table}';
END;`,
  )
  .join('\n')}
CREATE TRIGGER memberships_count_ai AFTER INSERT ON memberships BEGIN
  INSERT INTO counters (workspace_id, resource, count) VALUES (new.workspace_id, 'users', 1)
    ON CONFLICT (workspace_id, resource) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER memberships_count_ad AFTER DELETE ON memberships BEGIN
  UPDATE counters SET count = count - 1 WHERE workspace_id = old.workspace_id AND resource = 'users';
END;
`;
