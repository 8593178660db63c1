// Go's time.Duration in TypeScript, to the nanosecond: the operator writes
// durations as Go prints them (metav1.Duration), and the status command
// prints them with Go's Duration.String, Round and Truncate; the tab must
// print the same text. Ported from Go's src/time/time.go (Duration.String,
// fmtFrac, fmtInt, Round, Truncate) and src/time/format.go (ParseDuration).
// Durations are numbers of nanoseconds: exact up to 2^53 ns, about 104
// days, far beyond any update's.

export const Nanosecond = 1;
export const Microsecond = 1000 * Nanosecond;
export const Millisecond = 1000 * Microsecond;
export const Second = 1000 * Millisecond;
export const Minute = 60 * Second;
export const Hour = 60 * Minute;

const units: Record<string, number> = {
  ns: Nanosecond,
  us: Microsecond,
  'µs': Microsecond, // U+00B5 micro sign
  'μs': Microsecond, // U+03BC Greek letter mu
  ms: Millisecond,
  s: Second,
  m: Minute,
  h: Hour,
};

// parseDuration parses a Go duration string such as "10m0s" or "1h2.5s".
export const parseDuration = (s: string): number => {
  const orig = s;
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') {
    return 0;
  }
  if (rest === '') {
    throw new Error(`invalid duration "${orig}"`);
  }
  let total = 0;
  const part = /^([0-9]*)(?:\.([0-9]*))?([^0-9.]+)/;
  while (rest !== '') {
    const m = part.exec(rest);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) {
      throw new Error(`invalid duration "${orig}"`);
    }
    const unit = units[m[3]];
    if (unit === undefined) {
      throw new Error(`unknown unit "${m[3]}" in duration "${orig}"`);
    }
    const whole = m[1] === '' ? 0 : Number(m[1]);
    const frac = m[2] ? Number(`0.${m[2]}`) : 0;
    total += whole * unit + Math.floor(frac * unit);
    rest = rest.slice(m[0].length);
  }
  return sign * total;
};

// fmtFrac writes the fraction of v/10^prec, trailing zeros omitted, and
// returns it with the integer part.
const fmtFrac = (v: number, prec: number): [string, number] => {
  let out = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10;
    print = print || digit !== 0;
    if (print) {
      out = String(digit) + out;
    }
    v = Math.floor(v / 10);
  }
  return [print ? `.${out}` : '', v];
};

// durationString is Go's Duration.String: "72h3m0.5s", "1m29s", "6s",
// "500ms", "0s".
export const durationString = (d: number): string => {
  const neg = d < 0;
  let u = Math.abs(Math.trunc(d));
  let out: string;
  if (u < Second) {
    if (u === 0) {
      return '0s';
    }
    let prec: number;
    let unit: string;
    if (u < Microsecond) {
      prec = 0;
      unit = 'ns';
    } else if (u < Millisecond) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [frac, whole] = fmtFrac(u, prec);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = `${u % 60}${frac}s`;
    u = Math.floor(u / 60);
    if (u > 0) {
      out = `${u % 60}m${out}`;
      u = Math.floor(u / 60);
      if (u > 0) {
        out = `${u}h${out}`;
      }
    }
  }
  return neg ? `-${out}` : out;
};

// round is Go's Duration.Round: halfway values round away from zero.
export const round = (d: number, m: number): number => {
  if (m <= 0) {
    return d;
  }
  let r = d % m;
  if (d < 0) {
    r = -r;
    return r + r < m ? d + r : d - m + r;
  }
  return r + r < m ? d - r : d + m - r;
};

// truncate is Go's Duration.Truncate: toward zero.
export const truncate = (d: number, m: number): number => (m <= 0 ? d : d - (d % m));

// between is the duration from a to b, in nanoseconds.
export const between = (a: Date, b: Date): number => (b.getTime() - a.getTime()) * Millisecond;
