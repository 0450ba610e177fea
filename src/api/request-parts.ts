// What a request is built from, apart from sending it: paths with every value encoded, and
// multipart parts with this API family's bracket names. Pure; the transport sends them.

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; data: Buffer | Uint8Array | Blob }
  | { name: string; filePath: string; filename?: string; contentType?: string };

/**
 * Template tag that percent-encodes every interpolated value:
 * encodePath`/workspaces/${ws}/contacts/${id}`.
 */
export function encodePath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let path = strings[0] ?? '';
  values.forEach((value, index) => {
    const text = String(value);
    // "." and ".." survive encodeURIComponent (and %2E) and would be resolved as path segments.
    if (text === '' || text === '.' || text === '..') throw new TypeError(`Invalid path parameter: "${text}"`);
    path += encodeURIComponent(text) + (strings[index + 1] ?? '');
  });
  return path;
}

/**
 * Flattens a nested object into multipart fields with this API family's bracket names:
 * {contact_groups: [3, 4]} -> contact_groups[0]=3, contact_groups[1]=4;
 * {header: {media: {type: 'image'}}} -> header[media][type]=image. Booleans become 1/0,
 * null/undefined are left out. Files: a Buffer/Uint8Array, `{data, filename?, contentType?}`
 * (in memory, or a Blob: read as it is sent) or `{filePath, filename?, contentType?}` (streamed from disk).
 */
export function toMultipartParts(input: Record<string, unknown>): MultipartPart[] {
  const parts: MultipartPart[] = [];
  const visit = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (value instanceof Uint8Array) return void parts.push({ name, filename: 'blob', data: value });
    if (value instanceof Date) return void parts.push({ name, value: value.toISOString() });
    if (typeof value === 'boolean') return void parts.push({ name, value: value ? '1' : '0' });
    if (typeof value !== 'object') return void parts.push({ name, value: String(value) });
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(`${name}[${index}]`, item));
      return;
    }
    const { filePath, data, filename, contentType } = value as Record<string, unknown>;
    const fileOptions = {
      ...(typeof filename === 'string' ? { filename } : {}),
      ...(typeof contentType === 'string' ? { contentType } : {}),
    };
    if (typeof filePath === 'string') return void parts.push({ name, filePath, ...fileOptions });
    if (data instanceof Uint8Array || data instanceof Blob) return void parts.push({ name, filename: 'blob', data, ...fileOptions });
    for (const [key, child] of Object.entries(value)) visit(`${name}[${key}]`, child);
  };
  for (const [key, value] of Object.entries(input)) visit(key, value);
  return parts;
}
