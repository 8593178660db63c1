import {
  durationString,
  Hour,
  Microsecond,
  Millisecond,
  Minute,
  parseDuration,
  round,
  Second,
  truncate,
} from '../view/duration';

// The expectations are what Go's time package prints and computes for the
// same durations (go doc time.Duration.String, Round, Truncate).
describe('Go durations', () => {
  test.each([
    ['zero', 0, '0s'],
    ['nanoseconds', 7, '7ns'],
    ['microseconds', 1500, '1.5µs'],
    ['milliseconds', 500 * Millisecond, '500ms'],
    ['seconds', 6 * Second, '6s'],
    ['fractional seconds', 89 * Second + 400 * Millisecond, '1m29.4s'],
    ['whole minutes keep 0s', 10 * Minute, '10m0s'],
    ['hours keep 0m0s', 3 * Hour, '3h0m0s'],
    ['hours, minutes, seconds', Hour + 17 * Second, '1h0m17s'],
    ['negative', -(9 * Minute), '-9m0s'],
  ])('String: %s', (_, d, want) => {
    expect(durationString(d)).toBe(want);
  });

  test.each([
    ['metav1.Duration of a node estimate', '10m0s', 10 * Minute],
    ['hours', '1h12m0s', Hour + 12 * Minute],
    ['fraction', '1m29.4s', 89 * Second + 400 * Millisecond],
    ['micro sign', '3µs', 3 * Microsecond],
    ['zero', '0s', 0],
    ['bare zero', '0', 0],
    ['negative', '-5m', -5 * Minute],
  ])('parse: %s', (_, s, want) => {
    expect(parseDuration(s)).toBe(want);
  });

  test.each(['', '10', 'm', '5x'])('parse refuses %j', (s) => {
    expect(() => parseDuration(s)).toThrow(/duration/);
  });

  test.each([
    ['down', 89 * Second + 400 * Millisecond, Second, 89 * Second],
    ['half away from zero', 89 * Second + 500 * Millisecond, Second, 90 * Second],
    ['negative half away from zero', -(30 * Second), Minute, -Minute],
    ['negative down', -(29 * Second), Minute, 0],
  ])('round: %s', (_, d, m, want) => {
    expect(round(d, m)).toBe(want);
  });

  test.each([
    ['toward zero', 25 * Minute + 59 * Second, Minute, 25 * Minute],
    ['negative toward zero', -(25 * Minute + 59 * Second), Minute, -(25 * Minute)],
  ])('truncate: %s', (_, d, m, want) => {
    expect(truncate(d, m)).toBe(want);
  });
});
