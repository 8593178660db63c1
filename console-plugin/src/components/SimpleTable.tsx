// A compact read-only table in PatternFly 6's table markup and classes,
// whose styles the console provides. @patternfly/react-table's Table would
// bring its sorting, selection and action menus (over 100 KB) into a
// bundle held to 500 KB, for rows that only show text.
import type { ReactNode } from 'react';

export type Column = { title: string; screenReaderOnly?: boolean };

export const SimpleTable = ({
  label,
  columns,
  rows,
}: {
  label: string;
  columns: Column[];
  rows: { key: string; cells: ReactNode[]; testId?: string; attrs?: Record<string, string> }[];
}) => (
  <table className="pf-v6-c-table pf-m-compact pf-m-grid-md" role="grid" aria-label={label}>
    <thead className="pf-v6-c-table__thead">
      <tr className="pf-v6-c-table__tr">
        {columns.map((c) => (
          <th key={c.title} className="pf-v6-c-table__th" scope="col">
            {c.screenReaderOnly ? <span className="pf-v6-screen-reader">{c.title}</span> : c.title}
          </th>
        ))}
      </tr>
    </thead>
    <tbody className="pf-v6-c-table__tbody">
      {rows.map((r) => (
        <tr key={r.key} className="pf-v6-c-table__tr" data-test={r.testId} {...r.attrs}>
          {r.cells.map((cell, i) => (
            <td key={columns[i].title} className="pf-v6-c-table__td" data-label={columns[i].title}>
              {cell}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  </table>
);
