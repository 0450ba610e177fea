/**
 * How a JSON body is read: as UTF-8 (the only encoding JSON has, RFC 8259), neither compressed
 * nor declared in another charset, and with every string checked to be valid Unicode (unicode.ts),
 * so that nothing is stored other than as it was sent.
 */
import type { FastifyInstance } from 'fastify';
import { invalidField } from './errors.js';
import { decodeKeepingInvalid, invalidTextError } from './unicode.js';

const charsetOf = (contentType: string | undefined) => /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];

export function registerJsonBody(app: FastifyInstance): void {
  // A body the server would have to decompress is refused rather than read as if it were plain.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      return done(invalidField('body', `The request body must not be compressed (Content-Encoding: ${encoding}): send it as it is.`));
    }
    done(null, payload);
  });

  // Some clients send `Content-Type: application/json` with an empty body (a DELETE, say): that
  // is no body, not a malformed one. Anything else goes to fastify's own (poisoning-safe) parser.
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      return done(invalidField('body', `The request body must be JSON in UTF-8, not ${charset}.`));
    }
    const text = decodeKeepingInvalid(body as Buffer);
    if (text.trim() === '') return done(null, undefined);
    defaultJsonParser(request, text, (error, value) => {
      if (error) return done(error);
      const invalid = invalidTextError(value);
      return invalid ? done(invalid) : done(null, value);
    });
  });
}
