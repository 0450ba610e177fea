// WsmClient: one object per connection, one property per API resource, all over one Transport.
// `createClient` is what the CLI context calls; tests build it directly over a MockAgent.
// A resource object is made on first access and loads its description (its zod schemas) on its
// first call: `wsm contacts list` builds the contacts schemas alone. A plain collection (its
// catalog entry says `collection: true`) needs nothing here: its property is the CRUD resource,
// typed by its description.
import type { Dispatcher } from 'undici';
import { AuthResource } from './resources/auth.js';
import { MissingWorkspaceError } from './errors.js';
import type { ResourceContext } from './resources/base.js';
import { CATALOG, RESOURCE_KEYS, type DescriptionOf, type ResourceIdentity, type ResourceKey } from './descriptions/catalog.js';
import type { CollectionDescription } from './descriptions/types.js';
import { CrudResource } from './resources/crud.js';
import { ContactsResource } from './resources/contacts.js';
import { ImportsResource } from './resources/imports.js';
import { TemplatesResource } from './resources/templates.js';
import { UsersResource } from './resources/users.js';
import { PermissionsResource, WorkspacesResource } from './resources/workspaces.js';
import type { Me, Single } from './schemas/index.js';
import { redactSecret } from './redact.js';
import { Transport, type HttpMethod, type QueryParams } from './transport.js';

export { MissingWorkspaceError, RequestValidationError, UnsupportedEndpointError } from './errors.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  /** Workspace UUID for workspace-scoped calls; calls that need one throw MissingWorkspaceError without it. */
  workspace?: string;
  dispatcher?: Dispatcher;
  trace?: (line: string) => void;
  userAgent?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Test seam: replaces the retry backoff wait. */
  sleep?: (ms: number) => Promise<void>;
}

interface RawRequestOptions {
  query?: QueryParams;
  json?: unknown;
}

/** The plain collections' keys: those the catalog says `collection: true` of. */
export type CollectionKey = { [K in ResourceKey]: (typeof CATALOG)[K] extends { collection: true } ? K : never }[ResourceKey];

/** A property for each plain collection, typed by its description. */
type Collections = {
  readonly [K in CollectionKey]: DescriptionOf<K> extends CollectionDescription<infer T, infer C, infer U> ? CrudResource<T, C, U> : never;
};

// The plain collections' properties, which the class defines from the catalog when it loads.
export interface WsmClient extends Collections {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the static block defines each property of Collections
export class WsmClient {
  static {
    for (const key of RESOURCE_KEYS) {
      if (!(CATALOG[key] as ResourceIdentity).collection) continue;
      Object.defineProperty(WsmClient.prototype, key, {
        get(this: WsmClient) {
          return this.resource(key, (ctx) => new CrudResource(ctx, key));
        },
      });
    }
  }

  readonly workspaceId: string | undefined;
  private readonly ctx: ResourceContext;
  private readonly made = new Map<ResourceKey, unknown>();

  /**
   * `notice` is the one reporter of what the client does on its own (`-v`): the transport's trace
   * goes there, and so do the page engine's changes of course (a window halved, a per_page lowered).
   */
  constructor(
    readonly transport: Transport,
    workspace?: string,
    readonly notice: (line: string) => void = () => undefined,
  ) {
    this.workspaceId = workspace || undefined;
    this.ctx = {
      transport,
      notice,
      workspace: () => {
        if (this.workspaceId === undefined) throw new MissingWorkspaceError();
        return this.workspaceId;
      },
    };
  }

  /** The resource object of `key`, made on first access. */
  private resource<R>(key: ResourceKey, make: (ctx: ResourceContext) => R): R {
    if (!this.made.has(key)) this.made.set(key, make(this.ctx));
    return this.made.get(key) as R;
  }

  get auth(): AuthResource {
    return this.resource('auth', (ctx) => new AuthResource(ctx));
  }
  get workspaces(): WorkspacesResource {
    return this.resource('workspaces', (ctx) => new WorkspacesResource(ctx));
  }
  get permissions(): PermissionsResource {
    return this.resource('permissions', (ctx) => new PermissionsResource(ctx));
  }
  get contacts(): ContactsResource {
    return this.resource('contacts', (ctx) => new ContactsResource(ctx));
  }
  get imports(): ImportsResource {
    return this.resource('imports', (ctx) => new ImportsResource(ctx));
  }
  get users(): UsersResource {
    return this.resource('users', (ctx) => new UsersResource(ctx));
  }
  get templates(): TemplatesResource {
    return this.resource('templates', (ctx) => new TemplatesResource(ctx));
  }

  /** GET /me (extension): the token's user and its workspaces. */
  me(): Promise<Single<Me>> {
    return this.auth.me();
  }

  /**
   * Any endpoint, raw (`wsm api`). `path` is relative to the base URL and used as given, so the
   * caller encodes it; the default retry rule of the method applies.
   */
  request<T = unknown>(method: HttpMethod, path: string, options: RawRequestOptions = {}): Promise<T> {
    return this.transport.request<T>({ method, path, ...options });
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

export function createClient(opts: ClientOptions): WsmClient {
  const transport = new Transport({
    baseUrl: opts.baseUrl,
    token: opts.token,
    dispatcher: opts.dispatcher,
    trace: opts.trace,
    userAgent: opts.userAgent,
    timeoutMs: opts.timeoutMs,
    maxRetries: opts.maxRetries,
    sleep: opts.sleep,
  });
  const trace = opts.trace;
  return new WsmClient(transport, opts.workspace, trace && ((line) => trace(redactSecret(line, opts.token))));
}
