/**
 * What the OpenAPI document says that no route's contract does: each tag's description (the
 * resource catalog's, src/api/descriptions), and the contract of the document's own route, which
 * is the server's and no resource's.
 */
import { CATALOG } from '../../api/descriptions/index.js';
import type { RouteContract } from '../http/contract.js';

const META = { name: 'Meta', description: 'This document.' };

/** The tags in the catalog's order, each once (permissions share Workspaces), then the document's own. */
export const TAGS: Array<{ name: string; description: string }> = [
  ...new Map(
    Object.values(CATALOG).map((identity) => [identity.tag, { name: identity.tag, description: identity.tagDescription }]),
  ).values(),
  META,
];

export const DOCUMENT_CONTRACT: RouteContract = { summary: 'This OpenAPI document', tags: [META.name] };
