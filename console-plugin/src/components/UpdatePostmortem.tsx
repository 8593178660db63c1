// One recorded update's postmortem, as `history RECORD` prints it: its
// head (record, state, start, the control plane's and the update's
// completion, the spans not observed), its timeline drawn (UpdateTimeline)
// and listed, the slowest operators, the pools, and the tables of the
// stalls and the estimates, from the same figures (src/view/history.ts
// build).
import {
  Card,
  CardBody,
  CardTitle,
  DescriptionList,
  DescriptionListDescription,
  DescriptionListGroup,
  DescriptionListTerm,
  Stack,
  StackItem,
  Title,
} from '@patternfly/react-core';
import type { UpdateRecord } from '../model/types';
import { build } from '../view/history';
import { estimatesTable, poolSections, postmortemTerms, postmortemTitle, slowestTable, stallsTable, timelineRows } from '../view/historytext';
import { picture } from '../view/timeline';
import { PostmortemPools, PostmortemTable } from './PostmortemTables';
import { SimpleTable } from './SimpleTable';
import { UpdateTimeline } from './UpdateTimeline';

// summaryColumn is the stalls table's SUMMARY, which the command cuts.
const summaryColumn = 4;

export const UpdatePostmortem = ({ record, now }: { record: UpdateRecord; now: Date }) => {
  const p = build(record, now);
  const drawn = picture(record, p, now);
  const title = postmortemTitle(p.update);
  // "the update to 4.16.12 from 4.15.30", for the picture's and the
  // tables' labels.
  const of = `the ${title.charAt(0).toLowerCase()}${title.slice(1)}`;
  return (
    <Card data-test="update-postmortem" data-record={p.update.record}>
      <CardTitle>{title}</CardTitle>
      <CardBody>
        <Stack hasGutter>
          <StackItem>
            <DescriptionList isCompact isHorizontal>
              {postmortemTerms(p).map((t) => (
                <DescriptionListGroup key={t.term} data-test="postmortem-term">
                  <DescriptionListTerm>{t.term}</DescriptionListTerm>
                  <DescriptionListDescription>
                    {t.lines.map((l, i) => (
                      <div key={i} data-test="term-line">
                        {l}
                      </div>
                    ))}
                  </DescriptionListDescription>
                </DescriptionListGroup>
              ))}
            </DescriptionList>
          </StackItem>
          <StackItem>
            {drawn ? (
              <UpdateTimeline picture={drawn} title={`Timeline of ${of}`} />
            ) : (
              <p data-test="timeline-none">The record has no start yet: the operator created it and has not yet written what it saw.</p>
            )}
          </StackItem>
          <StackItem>
            <PostmortemTable title="Slowest operators" table={slowestTable(p)} testId="slowest-operators" />
          </StackItem>
          <StackItem>
            <PostmortemPools {...poolSections(p)} />
          </StackItem>
          <StackItem>
            <PostmortemTable
              title="Stalls"
              table={stallsTable(p)}
              testId="stalls"
              cell={(row, column, text) =>
                column === summaryColumn && text !== p.stalls[row].summary ? (
                  <span key={column} title={p.stalls[row].summary}>
                    {text}
                  </span>
                ) : (
                  text
                )
              }
            />
          </StackItem>
          <StackItem>
            <PostmortemTable title="Estimates" table={estimatesTable(p)} testId="estimates" />
          </StackItem>
          <StackItem data-test="timeline-events">
            <Title headingLevel="h3">Timeline</Title>
            <SimpleTable
              label={`Events of ${of}`}
              columns={[{ title: 'At', nowrap: true }, { title: 'Event' }]}
              rows={timelineRows(p).map((cells, i) => ({ key: String(i), cells }))}
            />
          </StackItem>
        </Stack>
      </CardBody>
    </Card>
  );
};
