// A multipart form as the document states it: each field as the text it travels as, each file
// part as a binary string with what it must hold (the server checks the bytes), and the encoding
// of every part declared, since OpenAPI's default for an object part is a JSON part and the server
// reads objects and lists only as bracket names (`fields[city]=Lisbon`, `contact_groups[]=3`).
import { AVATAR_MAX_BYTES, IMPORT_MAX_BYTES, MEDIA_RULES } from '../../api/schemas/index.js';

type Json = Record<string, unknown>;

const MB = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const AVATAR = {
  contentType: 'image/png, image/jpeg, image/gif, image/webp',
  description: `A PNG, JPEG, GIF or WebP image (read from its bytes, not its name), at most ${MB(AVATAR_MAX_BYTES)}.`,
};

/** What each file part the API takes must hold. */
const FILE_PARTS: Record<string, { contentType: string; description: string }> = {
  avatar: AVATAR,
  'avatar.0': AVATAR,
  'avatar.1': AVATAR,
  file: {
    contentType: 'text/csv',
    description:
      `The contacts as CSV: a header row naming a \`number\` column, UTF-8 (a BOM allowed) or UTF-16 with its BOM, ` +
      `separated by commas, semicolons or tabs; at most ${MB(IMPORT_MAX_BYTES)}.`,
  },
  'header[media][file]': {
    contentType: 'image/jpeg, image/png, video/mp4, application/pdf',
    description: `The header's media, as its \`header[media][type]\` says: ${Object.entries(MEDIA_RULES)
      .map(([type, rule]) => `${type} ${rule.formats.map((format) => format.toUpperCase()).join(' or ')} up to ${MB(rule.maxBytes)}`)
      .join(', ')}.`,
  },
};

/** A file part's schema: binary, so that generators send it as a file, with what it must hold. */
export function filePart(name: string): Json {
  const part = FILE_PARTS[name];
  return {
    type: 'string',
    format: 'binary',
    contentMediaType: part?.contentType.split(', ')[0] ?? 'application/octet-stream',
    ...(part ? { description: part.description } : {}),
  };
}

/**
 * A form field is text: a boolean travels as `1`/`0` (what wsm sends; `true`/`false` are accepted
 * too, decisions.md §1) and an integer as its digits (a positive one without a leading 0). Declared
 * as what is sent, so a validating proxy between client and server agrees with both.
 */
export function asFormValue(property: Json): Json {
  if (property.type === 'boolean') {
    const { type: _boolean, ...rest } = property;
    return { ...rest, type: 'string', enum: ['1', '0', 'true', 'false'] };
  }
  if (property.type === 'integer') {
    const { type: _integer, minimum, maximum: _max, exclusiveMinimum, exclusiveMaximum: _emax, ...rest } = property;
    const positive = (typeof minimum === 'number' && minimum >= 1) || (typeof exclusiveMinimum === 'number' && exclusiveMinimum >= 0);
    return { ...rest, type: 'string', pattern: positive ? '^[1-9][0-9]*$' : '^[0-9]+$' };
  }
  if (property.type === 'array' && typeof property.items === 'object' && property.items !== null) {
    return { ...property, items: asFormValue(property.items as Json) };
  }
  return property;
}

/** Each part's encoding: objects and lists as bracket names (deepObject), files with the types they take. */
export function formEncoding(properties: Record<string, Json>, files: readonly string[]): Json {
  const encoding: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    if (files.includes(name)) encoding[name] = { contentType: FILE_PARTS[name]?.contentType ?? 'application/octet-stream' };
    else if (property.type === 'object' || property.type === 'array' || property.anyOf || property.oneOf)
      encoding[name] = { contentType: 'text/plain', style: 'deepObject', explode: true };
  }
  return encoding;
}
