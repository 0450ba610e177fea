// Groups, fields, labels and roles: the CRUD shape with each one's extensions (decisions.md §6).
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
  type Role,
} from '../schemas/index.js';
import type { ResourceContext } from './base.js';
import { CrudResource } from './crud.js';

export class GroupsResource extends CrudResource<ContactGroup, typeof groupCreateBody, typeof groupUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, { segment: 'contact-groups', noun: 'contact group', createBody: groupCreateBody, updateBody: groupUpdateBody, extensions: ['get', 'update', 'delete'] });
  }
}

export class FieldsResource extends CrudResource<ContactField, typeof fieldCreateBody, typeof fieldUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, { segment: 'contact-fields', noun: 'contact field', createBody: fieldCreateBody, updateBody: fieldUpdateBody, extensions: ['get', 'update'] });
  }
}

export class LabelsResource extends CrudResource<Label, typeof labelCreateBody, typeof labelUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, { segment: 'labels', noun: 'label', createBody: labelCreateBody, updateBody: labelUpdateBody, extensions: ['list', 'delete'] });
  }
}

export class RolesResource extends CrudResource<Role, typeof roleCreateBody, typeof roleUpdateBody> {
  constructor(ctx: ResourceContext) {
    super(ctx, { segment: 'roles', noun: 'role', createBody: roleCreateBody, updateBody: roleUpdateBody, extensions: ['get', 'update', 'delete'] });
  }
}
