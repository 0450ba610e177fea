// WsmClient: one object per connection, one property per API resource, all over one Transport.
// `createClient` is what the CLI context calls; tests build it directly over a MockAgent.
import type { Dispatcher } from 'undici';
import { AuthResource } from './resources/auth.js';
import { MissingWorkspaceError } from './errors.js';
import type { ResourceContext } from './resources/base.js';
import { FieldsResource, GroupsResource, LabelsResource, RolesResource } from './resources/collections.js';
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

export interface RawRequestOptions {
  query?: QueryParams;
  json?: unknown;
}

export class WsmClient {
  readonly workspaceId: string | undefined;
  readonly auth: AuthResource;
  readonly workspaces: WorkspacesResource;
  readonly permissions: PermissionsResource;
  readonly contacts: ContactsResource;
  readonly groups: GroupsResource;
  readonly fields: FieldsResource;
  readonly imports: ImportsResource;
  readonly labels: LabelsResource;
  readonly roles: RolesResource;
  readonly users: UsersResource;
  readonly templates: TemplatesResource;

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
    const ctx: ResourceContext = {
      transport,
      notice,
      workspace: () => {
        if (this.workspaceId === undefined) throw new MissingWorkspaceError();
        return this.workspaceId;
      },
    };
    this.auth = new AuthResource(ctx);
    this.workspaces = new WorkspacesResource(ctx);
    this.permissions = new PermissionsResource(ctx);
    this.contacts = new ContactsResource(ctx);
    this.groups = new GroupsResource(ctx);
    this.fields = new FieldsResource(ctx);
    this.imports = new ImportsResource(ctx);
    this.labels = new LabelsResource(ctx);
    this.roles = new RolesResource(ctx);
    this.users = new UsersResource(ctx);
    this.templates = new TemplatesResource(ctx);
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
