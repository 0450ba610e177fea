/** The single contract of wsm: the client, the server and the OpenAPI document all read it. */
export * from './common.js';
export * from './validation.js';
export * from './permissions.js';
export * from './workspaces.js';
export * from './contacts.js';
export * from './groups.js';
export * from './fields.js';
export * from './imports.js';
export * from './labels.js';
export * from './roles.js';
export * from './users.js';
export * from './auth.js';
export * from './templates.js';
export * from './workspace-file.js';
