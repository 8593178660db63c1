import {
  Card,
  CardBody,
  CardTitle,
  DescriptionList,
  DescriptionListDescription,
  DescriptionListGroup,
  DescriptionListTerm,
  Label,
  Progress,
  Title,
} from '@patternfly/react-core';
import { rfc3339 } from '../view/format';
import type { Item, ProblemRow, Section } from '../view/hostedtext';
import { levelSeverity, progressVariant } from '../view/severity';
import { SimpleTable } from './SimpleTable';

// Term is a line of the section, each further line of its value (a
// drain's message lists a pod a line) beneath the first.
const Term = ({ item }: { item: Item }) => (
  <DescriptionListGroup>
    <DescriptionListTerm>{item.term}</DescriptionListTerm>
    <DescriptionListDescription>
      {item.lines.map((l, i) => (
        <div key={i} data-test="term-line">
          {l}
        </div>
      ))}
    </DescriptionListDescription>
  </DescriptionListGroup>
);

// Problems is the table --hosted-cluster prints under a section: since,
// level, reason and message, whose further lines continue on rows of
// their own.
const Problems = ({ title, problems }: { title: string; problems: ProblemRow[] }) => (
  <div data-test="problems">
    <Title headingLevel="h3">Problems</Title>
    <SimpleTable
      label={`Problems of ${title}`}
      columns={[{ title: 'Since', nowrap: true }, { title: 'Level', nowrap: true }, { title: 'Reason', nowrap: true }, { title: 'Message' }]}
      rows={problems.flatMap((p, i) => [
        {
          key: `${i}`,
          cells: [
            p.since,
            <Label key="l" status={levelSeverity(p.level)}>
              {p.level}
            </Label>,
            p.reason,
            p.lines[0],
          ],
        },
        ...p.lines.slice(1).map((line, j) => ({ key: `${i}/${j + 1}`, cells: ['', '', '', line] })),
      ])}
    />
  </div>
);

// HostedSectionCard shows the control plane or a NodePool as
// `status --hosted-cluster` prints it, line by line, with a bar of its
// completion while it updates, when it started and its estimated finish.
export const HostedSectionCard = ({ section }: { section: Section }) => (
  <Card data-test="hosted-section" data-kind={section.kind} data-title={section.title}>
    <CardTitle>
      {`${section.kind === 'NodePool' ? 'NodePool' : 'Control plane'} ${section.title}`}{' '}
      {section.assessment && (
        <Label isCompact status={section.severity} data-status={section.severity ?? 'none'} data-test="card-assessment">
          {section.assessment}
        </Label>
      )}
    </CardTitle>
    <CardBody>
      {section.percent !== undefined && (
        <Progress
          value={section.percent}
          label={`${section.percent}%`}
          title={`Completion ${section.percent}%`}
          variant={progressVariant(section.severity)}
        />
      )}
      {section.completed && <p data-test="section-completed">{section.completed}</p>}
      <DescriptionList isHorizontal>
        {section.items.map((item) => (
          <Term key={item.term} item={item} />
        ))}
        {section.startedAt && <Term item={{ term: 'Started', lines: [rfc3339(section.startedAt)] }} />}
        {section.estimatedFinish && <Term item={{ term: 'Estimated finish', lines: [section.estimatedFinish] }} />}
      </DescriptionList>
      {section.problems.length > 0 && <Problems title={section.title} problems={section.problems} />}
    </CardBody>
  </Card>
);
