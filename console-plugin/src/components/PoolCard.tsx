import {
  Alert,
  Card,
  CardBody,
  CardTitle,
  ExpandableSection,
  Label,
  LabelGroup,
  Progress,
  Title,
} from '@patternfly/react-core';
import { useState } from 'react';
import type { DrainHeld } from '../view/drains';
import { behindLine } from '../view/pools';
import type { NodeView, PoolView } from '../view/pools';
import type { ImageBuildState } from '../model/types';
import { levelSeverity, nodeSeverity, plural, poolSeverity, progressVariant } from '../view/severity';
import { SimpleTable } from './SimpleTable';

const NodeTable = ({ nodes }: { nodes: NodeView[] }) => (
  <SimpleTable
    label="Nodes"
    columns={[
      { title: 'Name' },
      { title: 'Assessment', nowrap: true },
      { title: 'Phase', nowrap: true },
      { title: 'Version', nowrap: true },
      { title: 'Est', nowrap: true },
      { title: 'Message' },
    ]}
    rows={nodes.map((n) => ({
      key: n.name,
      testId: `node-${n.name}`,
      cells: [
        n.name,
        <Label key="a" status={nodeSeverity(n.assessment)} data-status={nodeSeverity(n.assessment) ?? 'none'}>
          {n.assessment}
        </Label>,
        n.phase,
        n.version ?? '?',
        n.estimate,
        n.message,
      ],
      detail: n.wholeMessage
        ? { action: 'Whole message', content: <p style={{ whiteSpace: 'pre-wrap' }} data-test="whole-message">{n.wholeMessage}</p> }
        : undefined,
    }))}
  />
);

// DrainsHeld lists every pod that holds the drain of one of the pool's
// nodes, as status --details=nodes does under the pool's nodes: a node's
// row names only the first.
const DrainsHeld = ({ pool, drains }: { pool: string; drains: DrainHeld[] }) => (
  <div data-test="drains-held">
    <Title headingLevel="h4">{`Drains Held: ${pool}`}</Title>
    <SimpleTable
      label={`Drains held in ${pool}`}
      columns={[{ title: 'Node' }, { title: 'Pod' }, { title: 'Budgets' }, { title: 'Since', nowrap: true }, { title: 'Level', nowrap: true }]}
      rows={drains.map((d) => ({
        key: `${d.node}/${d.pod}`,
        cells: [
          d.node,
          d.pod,
          d.budgets,
          d.since,
          <Label key="l" status={levelSeverity(d.level)}>
            {d.level}
          </Label>,
        ],
      }))}
    />
  </div>
);

// imageBuildVariants are the alert variants of a build that will not
// finish by itself: a Failed build holds the pool's nodes until it is
// fixed, an Interrupted one until it is started again.
const imageBuildVariants: Partial<Record<ImageBuildState, 'danger' | 'warning'>> = {
  Failed: 'danger',
  Interrupted: 'warning',
};

// ImageBuild is the image-mode pool's build line, in status's words: a
// line as the Behind one is, or a plain inline alert for a build that
// failed or was interrupted.
const ImageBuild = ({ pool, line }: { pool: PoolView; line: string }) => {
  const state = pool.imageBuild?.state;
  const variant = state && imageBuildVariants[state];
  const test = { 'data-test': `image-build-${pool.name}`, 'data-state': state ?? 'none' };
  return variant ? <Alert isInline isPlain variant={variant} title={line} {...test} /> : <p {...test}>{line}</p>;
};

// PoolCard shows a pool: what it is (MachineConfigPool or NodePool), its
// completion, its nodes by phase, each node's row and the drains held;
// for an image-mode pool, its OS image build's line (imageBuild, from
// imageBuildLine), which status prints for the worker pools and the
// control plane's.
export const PoolCard = ({
  pool,
  title,
  drains = [],
  imageBuild,
}: {
  pool: PoolView;
  title?: string;
  drains?: DrainHeld[];
  imageBuild?: string;
}) => {
  const severity = poolSeverity(pool);
  const [expanded, setExpanded] = useState(pool.assessment !== 'Completed' && pool.assessment !== 'Behind');
  return (
    <Card data-test={`pool-${pool.name}`}>
      <CardTitle>
        {title ?? `${pool.kind} ${pool.name}`}{' '}
        <Label isCompact status={severity} data-status={severity ?? 'none'} data-test="card-assessment">
          {pool.assessment ?? '?'}
        </Label>
      </CardTitle>
      <CardBody>
        <Progress
          value={pool.completionPercent}
          label={`${pool.completionPercent}%`}
          title={`Completion ${pool.completion}`}
          variant={progressVariant(severity)}
        />
        <p>{pool.status}</p>
        {pool.configurationRollout && <p>{`${pool.kind} ${pool.name}: ${pool.configurationRollout}.`}</p>}
        {pool.behind && <p data-test={`behind-${pool.name}`}>{behindLine(pool)}</p>}
        {imageBuild && <ImageBuild pool={pool} line={imageBuild} />}
        <LabelGroup categoryName="Nodes by phase" numLabels={8}>
          {pool.phases.map((p) => (
            <Label key={p.phase} isCompact data-test={`phase-${p.phase}`}>{`${p.phase}: ${p.count}`}</Label>
          ))}
        </LabelGroup>
        {pool.informers.map((p) => (
          <p key={`${p.informer}/${p.uid}`}>{`${p.summary} (${p.note})`}</p>
        ))}
        <ExpandableSection
          toggleText={plural(pool.nodes.length, 'node')}
          isExpanded={expanded}
          onToggle={(_, e) => setExpanded(e)}
        >
          <NodeTable nodes={pool.nodes} />
        </ExpandableSection>
        {drains.length > 0 && <DrainsHeld pool={pool.name} drains={drains} />}
      </CardBody>
    </Card>
  );
};
