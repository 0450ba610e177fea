// heartbeat.ts: how often a piped wait says it is alive, and how it says the time waited.
import { expect, it } from 'vitest';
import { elapsedText, heartbeatEveryMs, statusCounts } from '../../src/cli/heartbeat.js';

it('comes every 30 s unless WSM_HEARTBEAT_INTERVAL (for tests) says otherwise', () => {
  expect(heartbeatEveryMs({})).toBe(30_000);
  expect(heartbeatEveryMs({ WSM_HEARTBEAT_INTERVAL: ' ' })).toBe(30_000);
  expect(heartbeatEveryMs({ WSM_HEARTBEAT_INTERVAL: '0.5s' })).toBe(500);
  expect(() => heartbeatEveryMs({ WSM_HEARTBEAT_INTERVAL: '0s' })).toThrow('WSM_HEARTBEAT_INTERVAL takes a duration');
});

it('says the time waited to the second, as a duration flag reads', () => {
  expect([0, 999, 45_000, 60_000, 190_000, 3_600_000, 3_720_000].map(elapsedText)).toEqual([
    '0s',
    '0s',
    '45s',
    '1m',
    '3m10s',
    '1h',
    '1h2m',
  ]);
});

it('counts the templates by status, in the order first seen', () => {
  expect(statusCounts(['PENDING', 'APPROVED', 'PENDING'])).toBe('2 PENDING, 1 APPROVED');
});
