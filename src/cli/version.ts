// The package version, read once from package.json, and the package's own files. The code runs
// from src/cli (tests), dist/cli (tsc) and the bundle's chunks (dist/bundle/chunks), so the
// package root is found as the nearest directory above this module holding a package.json.
import { existsSync, readFileSync } from 'node:fs';

let cached: string | undefined;
let root: URL | undefined;

/** A file of this installation, relative to its root (where package.json is). */
export function packageFile(path: string): URL {
  if (!root) {
    let dir = new URL('./', import.meta.url);
    while (!existsSync(new URL('package.json', dir)) && dir.pathname !== '/') dir = new URL('../', dir);
    root = dir;
  }
  return new URL(path, root);
}

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
