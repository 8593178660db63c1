// A compact read-only table in PatternFly 6's table markup and classes,
// whose styles the console provides. @patternfly/react-table's Table would
// bring its sorting, selection and action menus (over 100 KB) into a
// bundle held to 500 KB, for rows that only show text.
import { Button } from '@patternfly/react-core';
import { Fragment, ReactNode, useState } from 'react';

// nowrap keeps a column's cells on one line (PatternFly's pf-m-fit-content: no wrap, no wider than its text):
// versions, assessments and estimates, which read wrong when broken.
export type Column = { title: string; screenReaderOnly?: boolean; nowrap?: boolean };

const cellClass = (base: string, c: Column) => (c.nowrap ? `${base} pf-m-fit-content` : base);

// Detail is what a row shows beneath it once expanded by the action at
// the end of its last cell: a whole message its cell cuts.
export type Detail = { action: string; content: ReactNode };

export type Row = { key: string; cells: ReactNode[]; testId?: string; attrs?: Record<string, string>; detail?: Detail };

export const SimpleTable = ({ label, columns, rows }: { label: string; columns: Column[]; rows: Row[] }) => {
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const toggle = (key: string) => setOpen((o) => ({ ...o, [key]: !o[key] }));
  const cells = (r: Row) =>
    r.cells.map((cell, i) => (
      <td key={columns[i].title} className={cellClass('pf-v6-c-table__td', columns[i])} data-label={columns[i].title}>
        {cell}
        {r.detail && i === r.cells.length - 1 && (
          // data-not-text: not part of the cell's text (e2e/browse.js).
          <span data-not-text="">
            {' '}
            <Button variant="link" isInline onClick={() => toggle(r.key)} aria-expanded={!!open[r.key]} data-test="detail-toggle">
              {open[r.key] ? 'Hide' : r.detail.action}
            </Button>
          </span>
        )}
      </td>
    ));
  return (
    <table className="pf-v6-c-table pf-m-compact pf-m-grid-md" role="grid" aria-label={label}>
      <thead className="pf-v6-c-table__thead">
        <tr className="pf-v6-c-table__tr">
          {columns.map((c) => (
            <th key={c.title} className={cellClass('pf-v6-c-table__th', c)} scope="col">
              {c.screenReaderOnly ? <span className="pf-v6-screen-reader">{c.title}</span> : c.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="pf-v6-c-table__tbody">
        {rows.map((r) => (
          <Fragment key={r.key}>
            <tr className="pf-v6-c-table__tr" data-test={r.testId} {...r.attrs}>
              {cells(r)}
            </tr>
            {r.detail && open[r.key] && (
              <tr className="pf-v6-c-table__tr pf-v6-c-table__expandable-row pf-m-expanded" data-test="row-detail">
                <td className="pf-v6-c-table__td" colSpan={columns.length}>
                  <div className="pf-v6-c-table__expandable-row-content">{r.detail.content}</div>
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
};
