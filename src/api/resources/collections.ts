// Groups, fields, labels and roles: the CRUD shape over each one's description (decisions.md §6).
import type { Written } from '../answers.js';
import type {
  fieldCreateBody,
  fieldUpdateBody,
  groupCreateBody,
  groupUpdateBody,
  labelCreateBody,
  labelUpdateBody,
  roleCreateBody,
  roleUpdateBody,
  ContactField,
  ContactGroup,
  Label,
  LabelUpdateBody,
  Role,
} from '../schemas/index.js';
import type { CallOptions, ResourceContext } from './base.js';
import { CrudResource } from './crud.js';

export class GroupsResource extends CrudResource<ContactGroup, typeof groupCreateBody, typeof groupUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, 'groups');
  }
}

export class FieldsResource extends CrudResource<ContactField, typeof fieldCreateBody, typeof fieldUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, 'fields');
  }
}

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

export class RolesResource extends CrudResource<Role, typeof roleCreateBody, typeof roleUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, 'roles');
  }
}
