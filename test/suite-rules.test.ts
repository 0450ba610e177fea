// The suite passes on any machine, loaded or not: a test waits for its event and never races the
// clock. Read from the test files' syntax trees: a time-out given to a test or hook, and a check
// that an elapsed time stayed under a bound, are each a budget a slow machine misses.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const VITEST_CALLS = new Set(['it', 'test', 'describe', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach']);
const CLOCKS = /\b(Date\.now|performance\.now)\(\)/;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** `it`, `it.each(...)`, `describe.concurrent` ...: the vitest function a call's callee names, if any. */
function vitestName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return VITEST_CALLS.has(callee.text) ? callee.text : undefined;
  if (ts.isPropertyAccessExpression(callee)) return vitestName(callee.expression);
  if (ts.isCallExpression(callee)) return vitestName(callee.expression);
  return undefined;
}

const hasTimeout = (node: ts.Expression) =>
  ts.isObjectLiteralExpression(node) && node.properties.some((p) => p.name !== undefined && p.name.getText() === 'timeout');

/** Where a file races the clock: `line: what`, one per finding. */
function budgets(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const name = vitestName(node.expression);
      if (name !== undefined) {
        const last = node.arguments.at(-1);
        if (last !== undefined && ts.isNumericLiteral(last)) at(last, `${name}(..., ${last.text}): a time-out of its own`);
        for (const arg of node.arguments) if (hasTimeout(arg)) at(arg, `${name}({ timeout }): a time-out of its own`);
      }
      // expect(Date.now() - started).toBeLessThan(n): an upper bound on elapsed time.
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && /^toBeLessThan/.test(callee.name.text)) {
        const subject = callee.expression;
        if (ts.isCallExpression(subject) && CLOCKS.test(subject.arguments[0]?.getText() ?? ''))
          at(node, `${subject.arguments[0].getText()} must stay under a bound`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it('no test or hook sets a time-out of its own, and none bounds an elapsed time: a loaded machine is slow, not wrong', () => {
  expect(testFiles(join(root, 'test')).flatMap(budgets)).toEqual([]);
});

it('the suite-wide time-out is a hang guard of minutes, for tests and hooks alike', async () => {
  const { default: config } = await import('../vitest.config.js');
  expect(config.test?.testTimeout).toBeGreaterThanOrEqual(5 * 60_000);
  expect(config.test?.hookTimeout).toBe(config.test?.testTimeout);
});

const SET_UP = new Set(['beforeAll', 'beforeEach']);
const TEAR_DOWN = new Set(['afterAll', 'afterEach']);

/** The function a hook call is given: `beforeAll(async () => { ... })`. */
const hookBody = (node: ts.CallExpression) => node.arguments.find((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg));

/** Whether `node` sits behind a check of `name` within its hook: `if (name ...)`, `name && ...`, `name ? ... : ...`. */
function guarded(node: ts.Node, name: string, hook: ts.Node): boolean {
  const checks = (expression: ts.Expression) => new RegExp(`^!?\\(?${name}\\b`).test(expression.getText());
  for (let at = node.parent; at !== undefined && at !== hook; at = at.parent) {
    if (ts.isIfStatement(at) && checks(at.expression)) return true;
    if (ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && checks(at.left)) return true;
    if (ts.isConditionalExpression(at) && checks(at.condition)) return true;
  }
  return false;
}

/** Where a tear-down reads what a set-up assigned without asking whether the set-up got that far. */
function unguardedTeardowns(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const assigned = new Set<string>();
  const teardowns: ts.Node[] = [];
  const collect = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const body = hookBody(node);
      if (body && SET_UP.has(node.expression.text)) {
        const assignments = (inner: ts.Node) => {
          if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(inner.left))
            assigned.add(inner.left.text);
          ts.forEachChild(inner, assignments);
        };
        assignments(body);
      }
      if (body && TEAR_DOWN.has(node.expression.text)) teardowns.push(body);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const found: string[] = [];
  for (const hook of teardowns) {
    const visit = (node: ts.Node) => {
      if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        assigned.has(node.expression.text) &&
        node.questionDotToken === undefined &&
        !guarded(node, node.expression.text, hook)
      ) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${relative(root, file)}:${line}: ${node.getText()} (${node.expression.text}?. or if (${node.expression.text}))`);
      }
      ts.forEachChild(node, visit);
    };
    visit(hook);
  }
  return found;
}

it('a tear-down touches what its set-up made only if the set-up made it: a failed beforeAll reports its own error, once', () => {
  expect(testFiles(join(root, 'test')).flatMap(unguardedTeardowns)).toEqual([]);
});
