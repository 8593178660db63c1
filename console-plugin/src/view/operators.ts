// The updating operators' table as `status --details=operators` prints it
// (pkg/statusview text.go, after oc's pkg/cli/admin/upgrade/status/
// controlplane.go): the reason cut, and the message's further lines on
// rows of their own beneath the first.

// UpdatingOperator is a row of the table and the rows that continue its
// message. reason is what the REASON column says (wholeReason, when cut,
// is all of it); lines are the message's lines, the first on the
// operator's row.
export type UpdatingOperator = {
  name: string;
  since: string;
  reason: string;
  wholeReason?: string;
  lines: string[];
};

// maxReasonLength is how much of a reason the column shows, as oc shows.
export const maxReasonLength = 20;

// ellipsis cuts s to max characters (code points, as Go counts runes),
// the last three of them "...", as oc cuts a reason.
export const ellipsis = (s: string, max: number): string => {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 3).join('')}...`;
};

// oneCell keeps a reason to its cell, as status keeps a tab or a line
// break from starting another.
const oneCell = (s: string): string => s.replace(/\r\n|[\t\n]/g, ' ');

export const updatingOperator = (name: string, since: string, reason: string | undefined, message: string | undefined): UpdatingOperator => {
  const whole = reason ? oneCell(reason) : '';
  const shown = whole ? ellipsis(whole, maxReasonLength) : '-';
  return {
    name,
    since,
    reason: shown,
    wholeReason: shown !== whole && whole ? whole : undefined,
    lines: (message ?? '').split('\n').map((l) => l.replace(/\t/g, ' ')),
  };
};
