// Labels: the CRUD shape over their description (decisions.md §6), with an update of their own.
// The other plain collections (groups, fields, roles) need no class: client.ts serves them.
import type { Written } from '../answers.js';
import type { labelCreateBody, labelUpdateBody, Label, LabelUpdateBody } from '../schemas/labels.js';
import type { CallOptions, ResourceContext } from './base.js';
import { CrudResource } from './crud.js';

export class LabelsResource extends CrudResource<Label, typeof labelCreateBody, typeof labelUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, 'labels');
  }

  /**
   * api.md lists `name` as required on PUT (while a note says the colour alone may be sent): when
   * only the colour changes, the current name is read first and sent along, so both readings work.
   */
  override async update(id: number | string, body: LabelUpdateBody, options?: CallOptions): Promise<Written<Label>> {
    if (body.name !== undefined || body.color === undefined) return super.update(id, body, options);
    const { data: current } = await this.get(id, options);
    return super.update(id, typeof current.name === 'string' ? { ...body, name: current.name } : body, options);
  }
}
