/**
 * What the OpenAPI document says beyond the routes' own contracts (each route declares its
 * summary, tag, schemas and statuses in `schema:`, http/contract.ts): what each tag is about.
 */

export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'Auth', description: 'Bearer tokens and the calling user (extensions of the embedded server).' },
  { name: 'Workspaces', description: 'Workspaces and their permissions.' },
  { name: 'Contacts', description: 'Contacts, identified by their phone number.' },
  { name: 'Contact groups', description: 'Named groups of contacts.' },
  { name: 'Contact fields', description: 'Custom field definitions for contacts.' },
  { name: 'Contact imports', description: 'CSV imports of contacts, processed in the background.' },
  { name: 'Labels', description: 'Labels that categorise contacts.' },
  { name: 'Roles', description: 'Roles and the permissions they grant.' },
  { name: 'Users', description: 'Users who are members of a workspace.' },
  { name: 'Templates', description: 'Message templates submitted to the template provider for approval.' },
  { name: 'Files', description: 'Stored uploads such as avatars.' },
  { name: 'Meta', description: 'This document.' },
];

/** `/workspaces/:workspace/x/{id}` and `/workspaces/{ws}/x/:y` give the same key. */
export const operationKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+/g, '{}')}`;
