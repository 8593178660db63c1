import {
  Card,
  CardBody,
  CardTitle,
  ExpandableSection,
  Label,
  LabelGroup,
  Progress,
} from '@patternfly/react-core';
import { useState } from 'react';
import { behindLine } from '../view/pools';
import type { NodeView, PoolView } from '../view/pools';
import { SimpleTable } from './SimpleTable';

const assessmentColor = (a: string) =>
  (
    ({ Degraded: 'red', Unavailable: 'orange', Progressing: 'blue', Completed: 'green' }) as Record<
      string,
      'red' | 'orange' | 'blue' | 'green'
    >
  )[a] ?? 'grey';

const NodeTable = ({ nodes }: { nodes: NodeView[] }) => (
  <SimpleTable
    label="Nodes"
    columns={['Name', 'Assessment', 'Phase', 'Version', 'Est', 'Message'].map((title) => ({ title }))}
    rows={nodes.map((n) => ({
      key: n.name,
      testId: `node-${n.name}`,
      cells: [
        n.name,
        <Label key="a" color={assessmentColor(n.assessment)}>
          {n.assessment}
        </Label>,
        n.phase,
        n.version ?? '?',
        n.estimate,
        n.message,
      ],
    }))}
  />
);

// PoolCard shows a pool: what it is (MachineConfigPool or NodePool), its
// completion, its nodes by phase, and each node's row.
export const PoolCard = ({ pool, title }: { pool: PoolView; title?: string }) => {
  const [expanded, setExpanded] = useState(pool.assessment !== 'Completed' && pool.assessment !== 'Behind');
  return (
    <Card data-test={`pool-${pool.name}`}>
      <CardTitle>
        {title ?? `${pool.kind} ${pool.name}`}{' '}
        <Label isCompact>{pool.assessment ?? '?'}</Label>
      </CardTitle>
      <CardBody>
        <Progress value={pool.completionPercent} title={`Completion ${pool.completion}`} />
        <p>{pool.status}</p>
        {pool.configurationRollout && <p>{`${pool.kind} ${pool.name}: ${pool.configurationRollout}.`}</p>}
        {pool.behind && <p data-test={`behind-${pool.name}`}>{behindLine(pool)}</p>}
        <LabelGroup categoryName="Nodes by phase" numLabels={8}>
          {pool.phases.map((p) => (
            <Label key={p.phase} isCompact data-test={`phase-${p.phase}`}>{`${p.phase}: ${p.count}`}</Label>
          ))}
        </LabelGroup>
        {pool.informers.map((p) => (
          <p key={`${p.informer}/${p.uid}`}>{`${p.summary} (${p.note})`}</p>
        ))}
        <ExpandableSection
          toggleText={`${pool.nodes.length} nodes`}
          isExpanded={expanded}
          onToggle={(_, e) => setExpanded(e)}
        >
          <NodeTable nodes={pool.nodes} />
        </ExpandableSection>
      </CardBody>
    </Card>
  );
};
