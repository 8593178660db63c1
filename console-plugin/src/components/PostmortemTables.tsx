// The postmortem's tables as `history RECORD` prints them: each one's
// rows, or what it says when it has none, and the lines beneath it; and
// the pools, each with its phases and slowest nodes.
import { Title } from '@patternfly/react-core';
import type { ReactNode } from 'react';
import type { PoolSection, Table } from '../view/historytext';
import { SimpleTable } from './SimpleTable';

// heading is a column of the command's, "COMPLETION VS ESTIMATE", as the
// console heads its tables: "Completion vs estimate".
export const heading = (column: string): string => column.charAt(0) + column.slice(1).toLowerCase();

// The columns of times and durations stay on one line.
const nowrap = new Set(['STARTED', 'COMPLETED', 'DURATION', 'SINCE', 'UNTIL', 'TAKEN', 'ESTIMATED COMPLETION', 'AT', 'FIRST NODE IN', 'LAST NODE OUT']);

const Rows = ({ label, table, cell }: { label: string; table: Table; cell?: (row: number, column: number, text: string) => ReactNode }) => (
  <SimpleTable
    label={label}
    columns={table.columns.map((c) => ({ title: heading(c), nowrap: nowrap.has(c) }))}
    rows={table.rows.map((r, i) => ({ key: String(i), cells: r.map((text, j) => (cell ? cell(i, j, text) : text)) }))}
  />
);

const Notes = ({ notes }: { notes: string[] }) => (
  <>
    {notes.map((n) => (
      <p key={n} data-test="table-note">
        {n}
      </p>
    ))}
  </>
);

// PostmortemTable shows the table; cell, when given, shows a cell its own
// way (a cut summary, whole on hover).
export const PostmortemTable = ({
  title,
  table,
  testId,
  cell,
}: {
  title: string;
  table: Table;
  testId: string;
  cell?: (row: number, column: number, text: string) => ReactNode;
}) => (
  <div data-test={testId}>
    <Title headingLevel="h3">{title}</Title>
    {table.rows.length === 0 ? <p data-test="table-none">{table.none}</p> : <Rows label={title} table={table} cell={cell} />}
    <Notes notes={table.notes} />
  </div>
);

// PostmortemPools shows each pool: what its nodes did, its phases across
// them, its per-node times and its slowest nodes.
export const PostmortemPools = ({ pools, none, notes }: { pools: PoolSection[]; none: string; notes: string[] }) => (
  <div data-test="postmortem-pools">
    <Title headingLevel="h3">Pools</Title>
    {pools.length === 0 && <p data-test="table-none">{none}</p>}
    {pools.map((pool) => (
      <div key={pool.name} data-test="postmortem-pool" data-name={pool.name}>
        <p data-test="postmortem-pool-summary">
          <strong>{pool.heading}</strong>: {pool.summary}
        </p>
        {pool.phases && <Rows label={`Phases of pool ${pool.name}`} table={pool.phases} />}
        {pool.perNode && <p data-test="postmortem-pool-per-node">{pool.perNode}</p>}
        {pool.slowest && <Rows label={`Slowest nodes of pool ${pool.name}`} table={pool.slowest} />}
        <Notes notes={pool.notes} />
      </div>
    ))}
    <Notes notes={notes} />
  </div>
);
