/** Shared by the template, sync and outbox tests: bodies, real file bytes, multipart forms. */
import type { Harness } from './harness.js';
import type { SimulatedProvider } from '../../src/server/provider/simulated.js';

/** A real 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

export const utility = (name: string, text = 'Your order {{1}} has shipped.', variables: string[] | null = ['A-1']) => ({
  name,
  language: 'en',
  category: 'UTILITY',
  body: { text, ...(variables ? { variables } : {}) },
});

export const templatesUrl = (h: Harness, suffix = '') => `/api/v3/workspaces/${h.ws}/templates${suffix}`;

export async function createTemplate(
  h: Harness,
  body: Record<string, unknown>,
): Promise<{ id: number; provider_id: string; status: string }> {
  const res = await h.call({ method: 'POST', url: templatesUrl(h), payload: body });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export const simulated = (h: Harness) => h.app.provider as SimulatedProvider;

export interface FilePart {
  name: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

/** A multipart body by hand, so the test controls every byte and bracket name. */
export function multipart(fields: Array<[string, string]>, files: FilePart[] = []) {
  const boundary = 'wsmTestBoundary7MA4YWxk';
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The fields of a MARKETING template with an image header, as bracket names. */
export const mediaTemplateFields = (name: string, mediaType = 'image'): Array<[string, string]> => [
  ['name', name],
  ['language', 'en'],
  ['category', 'MARKETING'],
  ['header[type]', 'media'],
  ['header[media][type]', mediaType],
  ['body[text]', 'Our spring sale starts now, {{1}}!'],
  ['body[variables][]', 'Ana'],
  ['buttons[0][type]', 'QUICK_REPLY'],
  ['buttons[0][text]', 'Stop promotions'],
  ['unsubscribeButton', 'true'],
];
