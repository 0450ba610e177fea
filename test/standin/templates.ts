/**
 * Templates on the stand-in: create (its 201 body shaped by the `templateCreateBody` quirk), get,
 * delete and sync. The provider is a count of syncs: a PENDING template is decided after
 * `syncRoundsToDecide` syncs, REJECTED when its name contains `reject`, else APPROVED.
 */
import { HttpError, timestamp, type Json, type Reply, type Request, type Router } from './http.js';
import type { Row, RouteContext } from './routes.js';

const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];

export interface TemplateTools {
  ws: string;
  inWorkspace: (handler: (request: Request) => Reply | Promise<Reply>) => (request: Request) => Reply | Promise<Reply>;
  fail: (errors: Record<string, string[]>, message?: string) => never;
  out: (row: Json) => Json;
  newRow: (fields: Json) => Row;
}

/** Templates: create, get, delete and sync; the provider is a counter of syncs. */
export function registerTemplateRoutes(router: Router, ctx: RouteContext, tools: TemplateTools): void {
  const { state, quirks } = ctx;
  const { ws, inWorkspace, fail, out, newRow } = tools;
  const templateNotFound = () => new HttpError(404, { success: false, message: 'Template not found.' });
  const findTemplate = (raw: string) => {
    const row = /^\d+$/.test(raw) ? state.templates.find((t) => t.id === Number(raw)) : undefined;
    if (!row) throw templateNotFound();
    return row;
  };

  router.add(
    'POST',
    `${ws}/templates`,
    inWorkspace((request) => {
      const body = request.body;
      const errors: Record<string, string[]> = {};
      if (typeof body.name !== 'string' || !/^[a-z_]+$/.test(body.name))
        errors.name = ['The name field is required and must be lowercase letters and underscores.'];
      if (typeof body.language !== 'string' || body.language === '') errors.language = ['The language field is required.'];
      if (!CATEGORIES.includes(body.category as string)) errors.category = ['The selected category is invalid.'];
      const text = (body.body as { text?: unknown } | undefined)?.text;
      if (body.category !== 'AUTHENTICATION' && (typeof text !== 'string' || text === ''))
        errors['body.text'] = ['The body.text field is required.'];
      if (state.templates.some((t) => t.name === body.name && t.language === body.language))
        (errors.name ??= []).push('The name has already been taken.');
      if (Object.keys(errors).length) fail(errors);
      const template = newRow({
        workspace_id: state.workspace.id,
        name: body.name,
        language: body.language,
        category: body.category,
        status: 'PENDING',
        provider_id: `hx_${state.nextId}`,
        components: { header: body.header ?? null, body: body.body ?? null, footer: body.footer ?? null, buttons: body.buttons ?? [] },
        quality_score: null,
      });
      state.templates.push(template);
      const record = out(template);
      const shapes: Record<string, unknown> = {
        envelope: { success: true, message: 'Template created successfully.', data: record },
        bare: record,
        'data-null': { data: null },
        empty: {},
        'success-template': { success: true, template: record },
      };
      return { status: 201, body: shapes[quirks.templateCreateBody ?? 'envelope'] };
    }),
  );
  router.add(
    'GET',
    `${ws}/templates/{template}`,
    inWorkspace((request) => ({ status: 200, body: { success: true, data: out(findTemplate(request.params.template)) } })),
  );
  router.add(
    'DELETE',
    `${ws}/templates/{template}`,
    inWorkspace((request) => {
      const template = findTemplate(request.params.template);
      state.templates.splice(state.templates.indexOf(template), 1);
      return { status: 200, body: { success: true, message: 'Template deleted successfully.' } };
    }),
  );
  router.add(
    'POST',
    `${ws}/templates/sync`,
    inWorkspace(() => {
      if ((quirks.syncFailures ?? 0) > 0) {
        quirks.syncFailures! -= 1;
        return { status: 500, body: { success: false, message: 'Could not reach the template provider.' } };
      }
      const pending = state.templates.filter((t) => t.status === 'PENDING');
      if (pending.length === 0) return { status: 404, body: { success: false, message: 'No pending templates found.' } };
      for (const template of pending) {
        const rounds = (state.syncRounds.get(template.id) ?? 0) + 1;
        state.syncRounds.set(template.id, rounds);
        if (rounds >= (quirks.syncRoundsToDecide ?? 1)) {
          template.status = String(template.name).includes('reject') ? 'REJECTED' : 'APPROVED';
          template.updated_at = timestamp();
        }
      }
      return { status: 200, body: { success: true, message: 'Templates synchronized successfully.' } };
    }),
  );
}
