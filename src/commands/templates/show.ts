// How templates print.
import type { Template } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';

export const templateColumns: Column<Template>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'language', header: 'LANGUAGE' },
  { key: 'category', header: 'CATEGORY' },
  { key: 'status', header: 'STATUS' },
  { key: 'rejection_reason', header: 'REASON' },
];

type Header = Template['components']['header'];
type Button = Template['components']['buttons'][number];

/** `text: Hello {{1}} (examples: Ann)` or `media: image, handle 4::aW1h...`. */
function headerText(header: Header): string {
  if (!header) return '';
  if (header.type === 'text') return withExamples(header.text.content, header.text.variables);
  const media = header.media as { type?: string; handle?: string };
  return `media: ${media.type ?? '?'}${media.handle ? `, handle ${media.handle}` : ''}`;
}

/** A text header's text; a media header as its JSON object. */
function headerData(header: Header): unknown {
  if (!header) return '';
  return header.type === 'text' ? header.text.content : header;
}

function withExamples(text: string, variables: unknown): string {
  return Array.isArray(variables) && variables.length > 0 ? `${text}\n(examples: ${variables.join(', ')})` : text;
}

/** One button a line: `QUICK_REPLY: Track`, `URL: Visit -> https://...`, `PHONE_NUMBER: Call -> +1...`. */
function buttonLines(buttons: Button[] | undefined): string {
  return (buttons ?? [])
    .map((b) => {
      const target = 'url' in b ? b.url : 'phone_number' in b ? b.phone_number : undefined;
      return `${b.type}: ${b.text}${target ? ` -> ${target}` : ''}`;
    })
    .join('\n');
}

/** The category's options, one a line: `codeExpirationMinutes: 10`. */
function optionLines(options: Template['options'] | undefined): string {
  return Object.entries(options ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join('\n');
}

export const templateDetailColumns: Column<Template>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'language', header: 'Language' },
  { key: 'category', header: 'Category' },
  { key: 'status', header: 'Status' },
  { key: 'rejection_reason', header: 'Rejection reason' },
  { key: 'provider_id', header: 'Provider id' },
  // On a terminal these read as lines (`URL: Track -> https://…`); piped and CSV get the data itself.
  {
    key: 'components.header',
    header: 'Header',
    get: (t) => headerData(t.components?.header ?? null),
    show: (t) => headerText(t.components?.header ?? null),
  },
  {
    key: 'components.body',
    header: 'Body',
    get: (t) => t.components?.body?.text ?? '',
    show: (t) => (t.components?.body ? withExamples(t.components.body.text, t.components.body.variables) : ''),
  },
  { key: 'components.footer', header: 'Footer' },
  {
    key: 'components.buttons',
    header: 'Buttons',
    get: (t) => t.components?.buttons ?? [],
    show: (t) => buttonLines(t.components?.buttons),
  },
  { key: 'options', header: 'Options', get: (t) => t.options ?? {}, show: (t) => optionLines(t.options) },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];
