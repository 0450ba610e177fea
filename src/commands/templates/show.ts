// How templates print.
import type { Template } from '../../api/schemas/index.js';
import type { Column } from '../../cli/output.js';

export const templateColumns: Column<Template>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'language', header: 'LANGUAGE' },
  { key: 'category', header: 'CATEGORY' },
  { key: 'status', header: 'STATUS' },
  { key: 'rejection_reason', header: 'REASON' },
];

export const templateDetailColumns: Column<Template>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'language', header: 'Language' },
  { key: 'category', header: 'Category' },
  { key: 'status', header: 'Status' },
  { key: 'rejection_reason', header: 'Rejection reason' },
  { key: 'provider_id', header: 'Provider id' },
  { key: 'components.header', header: 'Header' },
  { key: 'components.body.text', header: 'Body' },
  { key: 'components.footer', header: 'Footer' },
  { key: 'components.buttons', header: 'Buttons' },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];
