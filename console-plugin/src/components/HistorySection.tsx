// The update history under the tab: the list `history` prints, the newest
// first, each update's version leading to its postmortem, drawn and in
// tables, beneath the list (UpdatePostmortem).
import { Alert, AlertVariant, Button, Spinner, Stack, Title } from '@patternfly/react-core';
import { useState } from 'react';
import { list } from '../view/history';
import { listCells, listColumns, noUpdates, unseenSince } from '../view/historytext';
import { heading } from './PostmortemTables';
import { SimpleTable } from './SimpleTable';
import { UpdatePostmortem } from './UpdatePostmortem';
import { useUpdateRecords } from './useUpdateRecords';

const errorText = (e: unknown) => (e as { message?: string })?.message ?? String(e);

// The columns kept on one line: versions, times, durations.
const nowrap = new Set(['TO', 'FROM', 'STARTED', 'CONTROL PLANE']);

export const HistorySection = ({ now }: { now: Date }) => {
  const { records, loaded, error } = useUpdateRecords();
  // The chosen record, by name: a record pruned meanwhile is no longer
  // found, and nothing is shown of it.
  const [chosen, setChosen] = useState<string>();
  const updates = list(records, now);
  const record = records.find((r) => r.metadata?.name === chosen);
  return (
    <section data-test="update-history">
      <Stack hasGutter>
        <Title headingLevel="h2">Update history</Title>
        {error ? (
          <Alert isInline variant={AlertVariant.danger} title={`Cannot read the update records: ${errorText(error)}`} data-test="history-error" />
        ) : !loaded ? (
          <Spinner aria-label="Loading the update records" />
        ) : updates.length === 0 ? (
          <p data-test="no-update-records">{noUpdates}</p>
        ) : (
          <>
            {unseenSince(records, now).map((n) => (
              <Alert key={n} isInline isPlain variant={AlertVariant.warning} title={n} data-test="history-unseen" />
            ))}
            <SimpleTable
              label="Recorded updates"
              columns={listColumns.map((c) => ({ title: heading(c), nowrap: nowrap.has(c) }))}
              rows={updates.map((u) => {
                const [to, ...rest] = listCells(u);
                return {
                  key: u.record,
                  testId: 'history-row',
                  attrs: { 'data-record': u.record, 'data-chosen': String(u.record === chosen) },
                  cells: [
                    <Button
                      key="to"
                      variant="link"
                      isInline
                      onClick={() => setChosen(u.record === chosen ? undefined : u.record)}
                      aria-expanded={u.record === chosen}
                      data-test="history-choose"
                      // An inline link wraps at a version's dashes, which
                      // its column keeps on one line.
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {/* A record not yet written has no version to show. */}
                      {to || u.record}
                    </Button>,
                    ...rest,
                  ],
                };
              })}
            />
            {record && <UpdatePostmortem record={record} now={now} />}
          </>
        )}
      </Stack>
    </section>
  );
};
