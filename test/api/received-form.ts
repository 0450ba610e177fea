// What a mock endpoint received as multipart, read back as a form: wsm streams its multipart bodies
// (src/api/multipart.ts), and the platform's own parser reads them.

/** The form a mock endpoint received (wsm streams a multipart body), read by the platform's own parser. */
export async function formOf(opts: { body?: unknown; headers?: unknown }): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of opts.body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  const type = (opts.headers as Record<string, string>)['content-type'];
  return new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
}
