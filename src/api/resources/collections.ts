// Groups, fields, labels and roles: the CRUD shape with each one's extensions (decisions.md §6).
import type { Written } from '../answers.js';
import {
  fieldCreateBody,
  fieldUpdateBody,
  groupCreateBody,
  groupUpdateBody,
  labelCreateBody,
  labelUpdateBody,
  roleCreateBody,
  roleUpdateBody,
  type ContactField,
  type ContactGroup,
  type Label,
  type LabelUpdateBody,
  type Role,
} from '../schemas/index.js';
import type { ResourceContext } from './base.js';
import { CrudResource } from './crud.js';

export class GroupsResource extends CrudResource<ContactGroup, typeof groupCreateBody, typeof groupUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, {
      segment: 'contact-groups',
      noun: 'contact group',
      createBody: groupCreateBody,
      updateBody: groupUpdateBody,
      extensions: ['get', 'update', 'delete'],
      instead: { get: 'find it in `wsm groups list`' },
    });
  }
}

export class FieldsResource extends CrudResource<ContactField, typeof fieldCreateBody, typeof fieldUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, {
      segment: 'contact-fields',
      noun: 'contact field',
      createBody: fieldCreateBody,
      updateBody: fieldUpdateBody,
      extensions: ['get', 'update'],
      instead: { get: 'find it in `wsm fields list`', update: 'delete the field and create it under the new name' },
    });
  }
}

export class LabelsResource extends CrudResource<Label, typeof labelCreateBody, typeof labelUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, {
      segment: 'labels',
      noun: 'label',
      createBody: labelCreateBody,
      updateBody: labelUpdateBody,
      extensions: ['list', 'delete'],
      instead: { list: 'keep the ids that `wsm labels create -q` prints and read each with `wsm labels get <id>`' },
    });
  }

  /**
   * api.md lists `name` as required on PUT (while a note says the colour alone may be sent): when
   * only the colour changes, the current name is read first and sent along, so both readings work.
   */
  override async update(id: number | string, body: LabelUpdateBody): Promise<Written<Label>> {
    if (body.name !== undefined || body.color === undefined) return super.update(id, body);
    const { data: current } = await this.get(id);
    return super.update(id, typeof current.name === 'string' ? { ...body, name: current.name } : body);
  }
}

export class RolesResource extends CrudResource<Role, typeof roleCreateBody, typeof roleUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, {
      segment: 'roles',
      noun: 'role',
      createBody: roleCreateBody,
      updateBody: roleUpdateBody,
      extensions: ['get', 'update', 'delete'],
      instead: { get: 'find it in `wsm roles list`' },
    });
  }
}
