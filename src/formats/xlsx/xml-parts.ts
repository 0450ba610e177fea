// A part of a workbook through saxes, a strict streaming XML parser: well-formedness checked as
// the part is inflated, only XML's five predefined entities and character references resolved
// (a DOCTYPE is refused, so no entity is ever declared, let alone expanded), one pass over each
// character whatever the chunks' cuts. Elements are named without their prefix (`x:row` is `row`:
// the OpenXML SDK prefixes every element), and OOXML's `_xHHHH_` escapes are resolved in text.
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import type { ZipArchive } from './zip-reader.js';

/** The XML of a part is not well-formed, or holds what a workbook never does. */
export class XmlError extends Error {}

export type Attributes = Readonly<Record<string, string>>;

/** How deep elements nest in a workbook's part (SpreadsheetML needs a dozen): deeper is crafted. */
const DEPTH = 100;
/** Attributes of one element (a root with its namespaces has a few dozen): more is crafted. */
const ATTRIBUTES = 256;

export interface XmlEvents {
  open(name: string, attributes: Attributes): void;
  close(name: string): void;
  /** Character data (text or CDATA) as it comes: a text node may come in pieces. */
  text(text: string): void;
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/** An attribute by its local name (`r:id` is found as `id`, after an unprefixed `id`). */
export function attribute(attributes: Attributes, name: string): string | undefined {
  if (Object.hasOwn(attributes, name)) return attributes[name];
  for (const key of Object.keys(attributes)) if (localName(key) === name) return attributes[key];
  return undefined;
}

/** OOXML writes what XML cannot hold (control characters) as `_xHHHH_`. */
export const unescapeOoxml = (text: string) =>
  text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text;

/**
 * Parses `part` (its bytes bounded by `limit`), calling `events`; after each chunk, what `drain`
 * gives back (the rows that chunk completed) is yielded, so a sheet is read a chunk at a time.
 */
export async function* parsePart<T>(
  zip: ZipArchive,
  part: string,
  events: XmlEvents,
  drain: () => T[] = () => [],
  limit?: number,
): AsyncGenerator<T> {
  const parser = new SaxesParser({ position: false });
  parser.on('doctype', () => {
    throw new XmlError('it declares a DOCTYPE, which a workbook never does');
  });
  let depth = 0;
  let attributes = 0;
  parser.on('opentagstart', () => {
    attributes = 0;
    if (++depth > DEPTH) throw new XmlError(`its part ${part} nests elements more than ${DEPTH} deep: the file is damaged`);
  });
  parser.on('attribute', () => {
    if (++attributes > ATTRIBUTES)
      throw new XmlError(`an element of its part ${part} has more than ${ATTRIBUTES} attributes: the file is damaged`);
  });
  parser.on('opentag', (tag) => events.open(localName(tag.name), tag.attributes as Attributes));
  // Every element closes through here, a self-closing one too.
  parser.on('closetag', (tag) => {
    depth--;
    events.close(localName(tag.name));
  });
  parser.on('text', (text) => events.text(text));
  parser.on('cdata', (text) => events.text(text));
  const decoder = new StringDecoder('utf8');
  const write = (text: string, end = false) => {
    try {
      if (text !== '') parser.write(text);
      if (end) parser.close();
    } catch (error) {
      if (error instanceof XmlError || !(error instanceof Error) || error.constructor !== Error) throw error;
      throw new XmlError(`its part ${part} is not well-formed XML (${error.message.replace(/\.$/, '')}): the file is damaged`);
    }
  };
  for await (const chunk of zip.chunks(part, limit)) {
    write(decoder.write(chunk));
    yield* drain();
  }
  write(decoder.end(), true);
  yield* drain();
}

/** A small part read through, for its events alone. */
export async function readPart(zip: ZipArchive, part: string, events: XmlEvents, limit?: number): Promise<void> {
  for await (const _ of parsePart(zip, part, events, undefined, limit)) {
    // nothing to drain: the events kept what they need
  }
}
