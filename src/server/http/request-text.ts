/**
 * How the text of a request is read: a JSON body as UTF-8 (the only encoding JSON has, RFC 8259),
 * neither compressed nor declared in another charset, with every string checked to be valid
 * Unicode (unicode.ts); and query values whose percent-encoding is not UTF-8 refused rather than
 * taken as the literal `%ff`. Nothing is used other than as it was sent.
 */
import type { FastifyInstance } from 'fastify';
import { invalidField } from './errors.js';
import { decodeKeepingInvalid, invalidTextError } from './unicode.js';

const charsetOf = (contentType: string | undefined) => /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];

/** The first query parameter whose name or value does not percent-decode to UTF-8 text. */
function undecodableQueryParameter(url: string): string | undefined {
  const query = url.indexOf('?');
  if (query === -1) return undefined;
  for (const pair of url.slice(query + 1).split('&')) {
    const [name, value = ''] = pair.split('=', 2).map((part) => part.replace(/\+/g, ' '));
    for (const part of [name, value]) {
      try {
        decodeURIComponent(part);
      } catch {
        try {
          return decodeURIComponent(name) || 'query';
        } catch {
          return 'query';
        }
      }
    }
  }
  return undefined;
}

export function registerRequestText(app: FastifyInstance): void {
  // After authentication (401 first), with the body's own checks.
  app.addHook('preValidation', (request, _reply, done) => {
    const name = undecodableQueryParameter(request.url);
    done(
      name === undefined
        ? undefined
        : invalidField(name, `The ${name.replace(/_/g, ' ')} field must be valid UTF-8 text (percent-encoded UTF-8 in a URL).`),
    );
  });

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
