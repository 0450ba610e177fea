// The keys of a file kept under review (a workspace file, a template file), checked against the
// JSON Schema of what it describes: a misspelt `footr:` would otherwise be dropped without a word
// and the record created without it. Each problem is named by its path in the file and its line,
// with the key it may mean.
import type { Document, LineCounter } from 'yaml';
import type { FieldErrors } from '../../api/schemas/index.js';
import { didYouMean } from '../../cli/similar.js';

export type Path = Array<string | number>;

export interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
}

/** `labels.1.color (line 7)`: the path as the API's field errors write it, plus where it is. */
export function locate(doc: Document, lines: LineCounter, path: Path): string {
  const dotted = path.length ? path.join('.') : '(file)';
  // A missing key has no node: point at the nearest one that exists.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return `${dotted} (line ${lines.linePos(node.range[0]).line})`;
  }
  return dotted;
}

export function addProblem(errors: FieldErrors, key: string, message: string): void {
  (errors[key] ??= []).includes(message) || errors[key].push(message);
}

/** A node and every branch of its unions, flattened. */
function branches(node: JsonSchemaNode): JsonSchemaNode[] {
  return [node, ...[...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])].flatMap(branches)];
}

/** The nodes that may describe the value at `path`, in any branch of a union. */
function nodesAt(schema: JsonSchemaNode, path: Path): JsonSchemaNode[] {
  let nodes = [schema];
  for (const step of path) {
    nodes = nodes.flatMap(branches).flatMap((node) => (typeof step === 'number' ? node.items : node.properties?.[step]) ?? []);
  }
  return nodes.flatMap(branches);
}

/** The keys the object at `path` may hold (in any branch of a union): the candidates for a misspelt key. */
export function knownKeys(schema: JsonSchemaNode, path: Path): string[] {
  return nodesAt(schema, path).flatMap((node) => Object.keys(node.properties ?? {}));
}

/** `"footr" is not a known field (did you mean "footer"?).` */
export function unknownKeyMessage(key: string, known: string[]): string {
  return `"${key}" is not a known field${didYouMean(key, known)}.`;
}

/**
 * Every key of `data`, at any depth, that the schema does not know where it stands, located in
 * the document. An object the schema leaves open (no properties named) is not looked into.
 */
export function unknownKeyProblems(data: unknown, schema: JsonSchemaNode, doc: Document, lines: LineCounter): FieldErrors {
  const errors: FieldErrors = {};
  const visit = (value: unknown, path: Path) => {
    if (Array.isArray(value)) return value.forEach((item, index) => visit(item, [...path, index]));
    if (value === null || typeof value !== 'object') return;
    const known = knownKeys(schema, path);
    if (known.length === 0) return;
    for (const [key, inner] of Object.entries(value)) {
      if (!known.includes(key)) addProblem(errors, locate(doc, lines, [...path, key]), unknownKeyMessage(key, known));
      else visit(inner, [...path, key]);
    }
  };
  visit(data, []);
  return errors;
}
