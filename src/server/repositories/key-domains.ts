/**
 * The e-mail domains of a key copy (key-chunks.ts), each held once: a contact's e-mail key is cut
 * at its first `@` into the part before it, kept in the contact's text, and the domain (`@` and
 * what follows), kept here and named in the contact by its index. A needle's place in the domains
 * is worked out once per count (`needleOf`), so a substring of a domain common to most contacts
 * costs one look per domain, not one per contact.
 *
 * Where a needle can be in an e-mail cut so: the part before the `@` holds no `@`, so a needle
 * without `@` lies in that part or in the domain; a needle with an `@` lies in the domain, or
 * starts in the part before it with its first `@` on the domain's first character.
 */

/** Distinct domains kept at most: beyond, a contact's e-mail stays whole in its text. */
const MAX_DOMAINS = 4096;

const ASCII = /^[\x00-\x7f]*$/;
/** A text as its UTF-8 bytes, one char a byte. */
export const bytesOf = (text: string) => (ASCII.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1'));

export interface Domains {
  /** The domains as UTF-8 bytes one per char (index 0: none). */
  texts: string[];
  indexes: Map<string, number>;
}

export const createDomains = (): Domains => ({ texts: [''], indexes: new Map() });

/** An e-mail key cut at its first `@`: the part the contact's text keeps and its domain's index (0: the whole e-mail kept). */
export function domainOf(domains: Domains, email: string): { local: string; domain: number } {
  const at = email.indexOf('@');
  if (at === -1) return { local: email, domain: 0 };
  const text = email.slice(at);
  let domain = domains.indexes.get(text);
  if (domain === undefined) {
    if (domains.texts.length >= MAX_DOMAINS) return { local: email, domain: 0 };
    domain = domains.texts.length;
    domains.texts.push(bytesOf(text));
    domains.indexes.set(text, domain);
  }
  return { local: email.slice(0, at), domain };
}

/** Bits of a chunk's trigram filter (gramsOf): 1 KB a chunk of 1,024 contacts. */
const GRAM_BITS = 8192;
const gramBit = (text: string, at: number) =>
  Math.imul((text.charCodeAt(at) << 16) | (text.charCodeAt(at + 1) << 8) | text.charCodeAt(at + 2), 2654435761) >>> 19;

/**
 * Which trigrams (of bytes) a chunk's text holds, hashed into GRAM_BITS bits: a text lacking one
 * of a needle's trigrams cannot hold the needle, and its scan is skipped (`examp` is in every
 * domain and no name).
 */
export function gramsOf(text: string): Uint32Array {
  const bits = new Uint32Array(GRAM_BITS / 32);
  for (let at = 0; at + 3 <= text.length; at++) {
    const bit = gramBit(text, at);
    bits[bit >>> 5] |= 1 << (bit & 31);
  }
  return bits;
}

/** May a text whose trigrams are `bits` hold the needle? */
export const mayHold = (bits: Uint32Array, needle: Needle) => needle.grams.every((bit) => (bits[bit >>> 5] & (1 << (bit & 31))) !== 0);

/** A needle (UTF-8 bytes one per char, no NUL) and where it lies among a copy's domains. */
export interface Needle {
  text: string;
  /** Its trigrams' bits (gramsOf). */
  grams: number[];
  /** Per domain: 1 when the domain holds the needle. */
  inDomain: Uint8Array;
  /** Some domain holds it. */
  anyDomain: boolean;
  /** A needle with an `@` after its first character: its part before the first `@`, which must end the e-mail's part before its domain... */
  before: string;
  /** ...and per domain, 1 when the domain starts with the rest (undefined when the needle cannot lie across). */
  startsDomain: Uint8Array | undefined;
}

/** The needle for a text (no NUL), looked for in a copy with these domains. */
export function needleOf(domains: Domains, key: string): Needle {
  const text = bytesOf(key);
  const inDomain = new Uint8Array(domains.texts.length);
  let anyDomain = false;
  for (let i = 1; i < domains.texts.length; i++) {
    if (!domains.texts[i].includes(text)) continue;
    inDomain[i] = 1;
    anyDomain = true;
  }
  const grams = [...new Set(Array.from({ length: Math.max(0, text.length - 2) }, (_, at) => gramBit(text, at)))];
  const at = text.indexOf('@');
  if (at <= 0) return { text, grams, inDomain, anyDomain, before: '', startsDomain: undefined };
  const rest = text.slice(at);
  const startsDomain = new Uint8Array(domains.texts.length);
  for (let i = 1; i < domains.texts.length; i++) if (domains.texts[i].startsWith(rest)) startsDomain[i] = 1;
  return { text, grams, inDomain, anyDomain, before: text.slice(0, at), startsDomain };
}

/** The bytes the domains take (for the copies' cap). */
export const domainBytes = (domains: Domains) => domains.texts.reduce((sum, text) => sum + text.length + 64, 0);
