// One JSON document too large to hold as one string (a dry run's plan of a million contacts): its
// array under `key` written an item at a time as the items come, each piece of about 64 KiB waiting
// until stdout takes more, then the document's other keys, known once every item was taken. The
// bytes are those of jsonText of the whole object with `key` first, indented (-o json) or on one
// line (ndjson).
import { pacedText } from './batched-text.js';
import type { Output } from './output.js';
import { jsonText } from './text.js';

export async function writeStreamedDocument(
  output: Output,
  key: string,
  items: AsyncIterable<unknown>,
  rest: () => Promise<object>,
  indent: boolean,
): Promise<void> {
  const out = pacedText(output);
  const name = JSON.stringify(key);
  await out.write(indent ? `{\n  ${name}: [` : `{${name}:[`);
  let count = 0;
  for await (const item of items) {
    const text = jsonText(item, indent);
    const piece = indent ? `\n    ${text.replace(/\n/g, '\n    ')}` : text;
    await out.write(count++ === 0 ? piece : `,${piece}`);
  }
  const others = jsonText(await rest(), indent);
  const close = indent && count > 0 ? '\n  ]' : ']';
  // `others` is an object's text: its opening brace gives way to the comma after the array.
  out.write(`${close}${others === '{}' ? (indent ? '\n}' : '}') : `,${others.slice(1)}`}\n`);
  out.end();
}
