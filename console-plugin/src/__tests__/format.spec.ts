import { Hour, Millisecond, Minute, Second } from '../view/duration';
import {
  assessmentWord,
  estimatedFinish,
  nodeEstimate,
  remaining,
  roughDuration,
  shortDuration,
  since,
  sinceStart,
  targetVersion,
} from '../view/format';

// The cases of pkg/statusview/format_test.go, which hold the Go wording
// these functions port.
describe('durations as status prints them', () => {
  test.each([
    ['short: hours and minutes', shortDuration, Hour + 12 * Minute, '1h12m'],
    ['short: whole hours', shortDuration, 3 * Hour, '3h'],
    ['short: minutes', shortDuration, 28 * Minute, '28m'],
    ['short: keeps zero minutes between hours and seconds', shortDuration, Hour + 17 * Second, '1h0m17s'],
    ['short: seconds', shortDuration, 6 * Second, '6s'],
    ['rough: over 10 minutes to the minute', roughDuration, Hour + 58 * Minute + 50 * Second, '1h59m'],
    ['rough: 10 minutes or less to the second', roughDuration, 89 * Second + 400 * Millisecond, '1m29s'],
  ])('%s', (_, show, d, want) => {
    expect(show(d)).toBe(want);
  });
});

describe('since', () => {
  const now = new Date('2024-08-05T17:23:22.368Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  test.each([
    ['unknown', undefined, '-'],
    ['under a second', ago(999), 'now'],
    ['in the future', ago(-60000), 'now'],
    ['to the second', ago((58 * 60 + 18) * 1000 + 368), '58m18s'],
    ['truncated as the reference does, not rounded', ago((2 * 60 + 56) * 1000 + 700), '2m56s'],
    ['truncated to whole hours', ago(3600 * 1000 + 900), '1h'],
  ])('%s', (_, t, want) => {
    expect(since(t, now)).toBe(want);
  });

  test('the update\'s own row is rounded, as the reference rounds the update\'s duration', () => {
    const started = ago((2 * 60 + 56) * 1000 + 700);
    expect(sinceStart(started, now)).toBe('2m57s');
    expect(since(started, now)).toBe('2m56s');
    expect(sinceStart(undefined, now)).toBe('-');
  });
});

describe('remaining', () => {
  const now = new Date('2024-08-05T17:00:00Z');
  const started = new Date(now.getTime() - 3600 * 1000).toISOString();
  const at = (leftMs: number) => new Date(now.getTime() + leftMs).toISOString();
  test.each([
    ['well ahead, to the minute', at((29 * 60 + 59) * 1000), started, '30m'],
    ['under 10 minutes, vague', at(9 * 60 * 1000), started, '<10m'],
    ['a little past the estimate, still vague', at(-9 * 60 * 1000), started, '<10m'],
    ['well past the estimate: how long it was estimated to take', at(-(34 * 60 + 20) * 1000), started, 'N/A; estimate duration was 25m'],
    ['well past the estimate, start unknown', at(-(34 * 60 + 20) * 1000), undefined, 'N/A'],
    // An update started long ago projects through the curve to years.
    ['further ahead than is believed: how long it was estimated to take', at(98206 * 3600 * 1000), started, 'N/A; estimate duration was 98207h'],
    ['a day ahead is still believed', at(24 * 3600 * 1000), started, '24h'],
  ])('%s', (_, estimated, start, want) => {
    expect(remaining(estimated, start, now)).toBe(want);
  });
});

describe('estimated finish', () => {
  const now = new Date('2024-08-05T21:56:00Z');
  test.each([
    ['ahead: the time', '2024-08-05T22:30:00Z', '2024-08-05T22:30:00Z'],
    // Made at the last sync, read minutes later: no time to come.
    ['passed since the estimate was made: none', '2024-08-05T21:51:27Z', undefined],
    ['years away: none', '2038-02-13T09:00:00Z', undefined],
    ['no estimate', undefined, undefined],
  ])('%s', (_, estimated, want) => {
    expect(estimatedFinish(estimated, now)).toBe(want);
  });
});

describe('words', () => {
  test.each([
    ['Degraded, written by earlier versions, reads Stalled', 'Degraded', 'Stalled'],
    ['ProgressingSlow as the reference says it', 'ProgressingSlow', 'Progressing - Slow'],
    ['Stalled as is', 'Stalled', 'Stalled'],
    ['Progressing as is', 'Progressing', 'Progressing'],
    ['none is unknown', undefined, '?'],
  ])('assessment: %s', (_, a, want) => {
    expect(assessmentWord(a)).toBe(want);
  });

  test.each([
    ['from a previous version', { version: '4.14.1' }, { version: '4.14.0' }, '4.14.1 (from 4.14.0)'],
    ['from an incomplete one', { version: '4.14.1' }, { version: '4.14.0', metadata: [{ key: 'Partial' as const }] }, '4.14.1 (from incomplete 4.14.0)'],
    ['to multi-architecture', { version: '4.16.0', metadata: [{ key: 'Architecture' as const, value: 'multi' }] }, { version: '4.16.0' }, '4.16.0 to Multi-Architecture'],
    ['after installation', { version: '4.16.0' }, undefined, '4.16.0'],
  ])('target version: %s', (_, target, previous, want) => {
    expect(targetVersion(target, previous)).toBe(want);
  });

  test.each([
    ['updating, with an estimate', '10m0s', 'Draining', 'Progressing', '+10m'],
    ['updating, estimate with seconds', '1m29s', 'Updating', 'Progressing', '+1m29s'],
    ['updated', undefined, 'Updated', 'Completed', '-'],
    ['updated, cordoned', undefined, 'Updated', 'Unavailable', '-'],
    ['paused', undefined, 'Paused', 'Excluded', '-'],
    ['paused, unavailable', undefined, 'Paused', 'Unavailable', '?'],
    ['paused, degraded', undefined, 'Paused', 'Degraded', '?'],
    ['pending, no estimate', undefined, 'Pending', 'Outdated', '?'],
  ])('node EST: %s', (_, est, phase, assessment, want) => {
    expect(nodeEstimate(est, phase, assessment)).toBe(want);
  });
});
