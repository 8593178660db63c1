// The wording of pkg/text that the hosted clusters' and the history's
// views print with (Minutes, Approx, OneLineCharacters, OneLine), so that
// the plugin says what `status --hosted-clusters`, `--hosted-cluster` and
// `history` say.
import { durationString, Minute, round } from './duration';

// minutes prints a duration to the minute, as an estimate reads: 1h40m,
// 55m, 2h, and "under a minute" below one.
export const minutes = (d: number): string => {
  const r = round(d, Minute);
  if (r < Minute) {
    return 'under a minute';
  }
  const s = durationString(r).replace(/0s$/, '');
  return s.endsWith('h0m') ? s.slice(0, -'0m'.length) : s;
};

// approx is an estimate in a list of them: "~55m", and "under a minute"
// below one, which "~" would not read well before.
export const approx = (d: number): string => (round(d, Minute) < Minute ? minutes(d) : `~${minutes(d)}`);

// fields is Go's strings.Fields joined by single spaces: a value's tabs and
// line breaks folded, as a table cell holds it.
export const fields = (s: string): string => s.split(/\s+/).filter((f) => f !== '').join(' ');

// oneLineCharacters folds s to one line and cuts it to max characters
// (code points, as the insight API counts them), the cut marked with an
// ellipsis, itself one.
export const oneLineCharacters = (s: string, max: number): string => {
  if (max <= 0) {
    return '';
  }
  const chars = Array.from(fields(s));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
};

const utf8Length = (c: string): number => new TextEncoder().encode(c).length;

// oneLine folds s to one line and cuts it to max bytes of UTF-8, never
// within a character, the cut marked with an ellipsis (three bytes) when
// there is room for one: Go's text.OneLine, which counts bytes.
export const oneLine = (s: string, max: number): string => {
  const folded = fields(s);
  if (utf8Length(folded) <= max) {
    return folded;
  }
  const mark = max < utf8Length('…') ? '' : '…';
  let room = max - utf8Length(mark);
  let out = '';
  for (const c of folded) {
    room -= utf8Length(c);
    if (room < 0) {
      break;
    }
    out += c;
  }
  return out + mark;
};
