// One JSON document too large to hold as one string (a dry run's plan of a million contacts, a
// row report of five million problems): written in parts, in order, each part's keys as they come;
// a value that is iterable but no array is written as an array an item at a time, each piece of
// about 64 KiB waiting until stdout takes more. A part may be a function giving its object once
// the parts before it were written (the report, known once every contact was taken). The bytes
// are those of jsonText of the whole object, indented (-o json) or on one line (ndjson).
import { pacedText } from './batched-text.js';
import type { Output } from './output.js';
import { jsonText } from './text.js';

export type DocumentPart = object | (() => Promise<object>);

type Items = Iterable<unknown> | AsyncIterable<unknown>;

const isItems = (value: unknown): value is Items =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (Symbol.iterator in value || Symbol.asyncIterator in value);

/** What JSON.stringify leaves out of an object. */
const unwritten = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

export async function writeStreamedDocument(output: Output, parts: DocumentPart[], indent: boolean): Promise<void> {
  const out = pacedText(output);
  /** A promise only while stdout is full: a million items cost no promise each. */
  const write = (text: string) => out.write(text);
  let keys = 0;
  for (const part of parts) {
    const object = typeof part === 'function' ? await part() : part;
    for (const [key, value] of Object.entries(object)) {
      if (unwritten(value)) continue;
      const name = `${keys++ === 0 ? '{' : ','}${indent ? '\n  ' : ''}${jsonText(key)}:${indent ? ' ' : ''}`;
      if (!isItems(value)) {
        await write(`${name}${indent ? jsonText(value, true).replace(/\n/g, '\n  ') : jsonText(value)}`);
        continue;
      }
      await write(`${name}[`);
      let count = 0;
      const item = (next: unknown) => {
        const text = jsonText(next, indent);
        const piece = indent ? `\n    ${text.replace(/\n/g, '\n    ')}` : text;
        return write(count++ === 0 ? piece : `,${piece}`);
      };
      // Items already in memory (the row report's problems) cost no turn of the event loop each.
      if (Symbol.iterator in value)
        for (const next of value) {
          const full = item(next);
          if (full !== undefined) await full;
        }
      else for await (const next of value) await item(next);
      await write(indent && count > 0 ? '\n  ]' : ']');
    }
  }
  out.write(keys === 0 ? '{}\n' : indent ? '\n}\n' : '}\n');
  out.end();
}
