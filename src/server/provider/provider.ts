/**
 * The template provider (the messaging platform's review service) as an
 * interface: the server talks only to this, so a real provider can replace
 * the simulated one.
 */
export interface ProviderSubmission {
  workspaceId: string;
  name: string;
  language: string;
  category: string;
  components: unknown;
  options: Record<string, unknown>;
}

export interface ProviderTemplateStatus {
  providerId: string;
  status: string;
  reason: string | null;
}

/** Why a provider call failed; sync names it in its 500 message. */
export type ProviderFaultKind = 'unavailable' | 'credentials' | 'timeout';
export const PROVIDER_FAULT_KINDS = ['unavailable', 'credentials', 'timeout'] as const satisfies readonly ProviderFaultKind[];

/** How each cause reads in a message (the published API names them for the sync 500). */
export const PROVIDER_FAULT_CAUSES: Record<ProviderFaultKind, string> = {
  unavailable: 'template provider unavailable',
  credentials: 'invalid channel credentials',
  timeout: 'template provider timed out',
};

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFaultKind,
    message: string = PROVIDER_FAULT_CAUSES[kind],
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface TemplateProvider {
  /** Submits a template for review; returns the provider's id for it. */
  submit(template: ProviderSubmission): Promise<{ providerId: string }>;
  /** Every template the provider holds for the workspace, with its review status. */
  list(workspaceId: string): Promise<ProviderTemplateStatus[]>;
  /** Deletes at the provider; throws ProviderError when it cannot (retried by the outbox). */
  delete(workspaceId: string, providerId: string): Promise<void>;
  /** Stores a media header and returns the handle the provider gives for it. */
  uploadMedia(workspaceId: string, file: { bytes: Buffer; contentType: string }): Promise<{ handle: string }>;
}
