/**
 * The generation a request looks at, and what a cache keeps under it (repositories/generations.ts),
 * on a real database file with a second connection to it, as another process would hold.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db.js';
import { generationsOf, type Generations } from '../../src/server/repositories/generations.js';

let dir: string;
let db: Db;
let other: Database.Database;
let generations: Generations;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-generations-'));
  db = openDatabase(join(dir, 'wsm.db'));
  other = new Database(join(dir, 'wsm.db'));
  generations = generationsOf(db);
});
afterEach(() => {
  other?.close();
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A cache whose answers count how often they were made. */
function counting(max: number, keepIf?: (value: string) => boolean) {
  const cache = generations.cache<string>(max, keepIf);
  let made = 0;
  const ask = (generation: number, key: string, value = key) => cache.through(generation, key, () => `${value}#${++made}`);
  return { ask, made: () => made };
}

describe('the generation', () => {
  it('stays while nothing is written, and moves on a write by this connection, by another, or rolled back', () => {
    const first = generations.look();
    expect(generations.look()).toBe(first);
    db.prepare("UPDATE counters SET count = count WHERE resource = 'none'").run();
    expect(generations.look()).toBe(first); // no row changed
    db.prepare("INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 'x', 'x')").run();
    const second = generations.look();
    expect(second).toBeGreaterThan(first);
    other.prepare("UPDATE users SET name = 'B' WHERE email = 'a@x'").run();
    const third = generations.look();
    expect(third).toBeGreaterThan(second);
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE users SET name = 'C' WHERE email = 'a@x'").run();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(generations.look()).toBeGreaterThan(third);
    expect(db.prepare("SELECT name FROM users WHERE email = 'a@x'").pluck().get()).toBe('B');
  });
});

describe('a cache', () => {
  it('answers from memory within a generation, and makes again in a newer one', () => {
    const cache = counting(8);
    const g = generations.look();
    expect([cache.ask(g, 'a'), cache.ask(g, 'a'), cache.ask(g, 'b')]).toEqual(['a#1', 'a#1', 'b#2']);
    db.prepare("INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 'x', 'x')").run();
    const newer = generations.look();
    expect([cache.ask(newer, 'a'), cache.ask(newer, 'a')]).toEqual(['a#3', 'a#3']);
  });

  it('never keeps for a request that looked before a newer one, nor for one that never looked', () => {
    const cache = counting(8);
    const old = generations.look();
    other.prepare("INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 'x', 'x')").run();
    const newer = generations.look();
    expect(cache.ask(newer, 'a')).toBe('a#1');
    expect([cache.ask(old, 'a'), cache.ask(old, 'a')]).toEqual(['a#2', 'a#3']);
    expect(cache.ask(newer, 'a')).toBe('a#1');
    expect([cache.ask(0, 'z'), cache.ask(0, 'z')]).toEqual(['z#4', 'z#5']);
  });

  it('keeps at most `max` answers, the oldest going first, nothing undefined, and nothing keepIf refuses', () => {
    const cache = counting(2, (value) => !value.startsWith('big'));
    const g = generations.look();
    cache.ask(g, 'a');
    cache.ask(g, 'b');
    cache.ask(g, 'c'); // a goes
    expect([cache.ask(g, 'b'), cache.ask(g, 'c'), cache.ask(g, 'a')]).toEqual(['b#2', 'c#3', 'a#4']);
    expect([cache.ask(g, 'big'), cache.ask(g, 'big')]).toEqual(['big#5', 'big#6']);
    const refusals = generations.cache<string>(2);
    let asked = 0;
    for (let i = 0; i < 2; i++) expect(refusals.through(g, 'nobody', () => (asked++, undefined))).toBeUndefined();
    expect(asked).toBe(2);
  });
});
