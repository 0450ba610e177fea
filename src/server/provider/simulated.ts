/**
 * The default template provider: an in-process stand-in for the messaging
 * platform's template review (decisions.md §6). Its state lives in
 * `simulated_provider_templates`, so a restart of `wsm serve` neither forgets
 * submissions nor re-decides them.
 *
 * The review outcome is decided at submission and revealed once the approval
 * delay has passed, measured from `submitted_at` with the delay in force at the
 * time of the `list` call (so a test can set the delay to 0 and sync at once).
 *
 * A fault breaks the provider's *channel* (list and delete), not submission:
 * decisions.md §6 wants `--provider-fault` to make sync answer 500 while local
 * statuses stay as they were, which needs templates to be creatable under it.
 */
import { randomUUID } from 'node:crypto';
import { reviewProblems } from '../../api/template-review.js';
import type { Db } from '../db.js';
import {
  ProviderError,
  type ProviderFaultKind,
  type ProviderSubmission,
  type ProviderTemplateStatus,
  type TemplateProvider,
} from './provider.js';

export interface SimulatedProviderOptions {
  /** How long the review "takes"; 0 decides at once. */
  approvalDelayMs?: number;
  fault?: ProviderFaultKind;
  /** Clock in epoch milliseconds, injectable for tests. */
  now?: () => number;
}

export interface SimulatedProvider extends TemplateProvider {
  /** Breaks (or, with undefined, heals) the channel at run time. */
  setFault(fault: ProviderFaultKind | undefined): void;
  setApprovalDelay(ms: number): void;
}

interface StoredTemplate {
  provider_id: string;
  submitted_at: string;
  decision: string;
  reason: string | null;
}

/** Where the real review would reject (decisions.md §6, src/api/template-review.ts), with the provider's reason. */
function reviewDecision(submission: ProviderSubmission): { decision: 'APPROVED' | 'REJECTED'; reason: string | null } {
  const body = (submission.components as { body?: { text?: unknown } | null } | null)?.body;
  const [problem] = reviewProblems({
    category: submission.category,
    body,
    codeExpirationMinutes: submission.options.codeExpirationMinutes,
  });
  if (problem) return { decision: 'REJECTED', reason: problem.reason };
  // A switch for tests and demos, not a rule of the real review: any name containing "reject" is turned down.
  if (submission.name.includes('reject')) return { decision: 'REJECTED', reason: 'PROMOTIONAL' };
  return { decision: 'APPROVED', reason: null };
}

export function createSimulatedProvider(db: Db, options: SimulatedProviderOptions = {}): SimulatedProvider {
  let fault = options.fault;
  let approvalDelayMs = options.approvalDelayMs ?? 5000;
  const now = options.now ?? Date.now;

  const insert = db.prepare(
    `INSERT INTO simulated_provider_templates (provider_id, workspace_id, name, submitted_at, decision, reason)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const ofWorkspace = db.prepare<[string], StoredTemplate>(
    `SELECT provider_id, submitted_at, decision, reason FROM simulated_provider_templates
      WHERE workspace_id = ? AND deleted = 0 ORDER BY rowid`,
  );
  const markDeleted = db.prepare('UPDATE simulated_provider_templates SET deleted = 1 WHERE workspace_id = ? AND provider_id = ?');

  const channel = () => {
    if (fault) throw new ProviderError(fault);
  };

  return {
    setFault(next) {
      fault = next;
    },
    setApprovalDelay(ms) {
      approvalDelayMs = ms;
    },

    async submit(submission) {
      const providerId = randomUUID();
      const { decision, reason } = reviewDecision(submission);
      insert.run(providerId, submission.workspaceId, submission.name, new Date(now()).toISOString(), decision, reason);
      return { providerId };
    },

    async list(workspaceId): Promise<ProviderTemplateStatus[]> {
      channel();
      const at = now();
      return ofWorkspace.all(workspaceId).map((row) => {
        const decided = Date.parse(row.submitted_at) + approvalDelayMs <= at;
        return decided
          ? { providerId: row.provider_id, status: row.decision, reason: row.reason }
          : { providerId: row.provider_id, status: 'PENDING', reason: null };
      });
    },

    async delete(workspaceId, providerId) {
      channel();
      // Idempotent: a retry after a lost acknowledgement must not fail for ever.
      markDeleted.run(workspaceId, providerId);
    },

    async uploadMedia() {
      // The simulation keeps no media: the handle only has to be opaque and unique.
      return { handle: `sim-media:${randomUUID()}` };
    },
  };
}
