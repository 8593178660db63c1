// One recorded update drawn over time in plain SVG, from its picture
// (src/view/timeline.ts): a lane per stall, per ClusterOperator and per
// pool seen updating, and per estimate; the stalls also as bands across
// every lane, in their level's colour; the spans no operator saw hatched
// and said; the start and the control plane's completion (or the
// abandonment, or where an update in progress was last seen) as lines the
// estimates are read against. Colours are PatternFly's tokens, which the
// console's theme sets. A chart library would add more to the bundle than
// this whole view.
import { useId } from 'react';
import { rfc3339 } from '../view/format';
import { span } from '../view/history';
import { late } from '../view/historytext';
import { levelSeverity, plural } from '../view/severity';
import { minutes, oneLineCharacters } from '../view/text';
import type { Bar, EstimateMark, Picture, StallBand, Unobserved } from '../view/timeline';

// The drawing's units: the SVG scales to the width it is given.
const width = 1000;
const labelWidth = 200;
const right = 24;
// Above the lanes: the ticks' times, then the spans' labels.
const top = 40;
const lane = 20;
const barHeight = 12;
// Below the lanes: the markers' labels, a row each for the start, the
// control plane's end and the update's, so that close ones do not overlap.
const bottom = 50;
const fontSize = 11;

const token = (name: string) => `var(--pf-t--global--${name})`;
const colors = {
  operator: token('color--brand--default'),
  pool: token('color--nonstatus--purple--default'),
  text: token('text--color--regular'),
  subtle: token('text--color--subtle'),
  grid: token('border--color--default'),
  completed: token('color--status--success--default'),
  background: token('background--color--primary--default'),
};

// halo keeps a label over the picture's lines legible: a stroke of the
// background's colour painted beneath its fill.
const halo = { paintOrder: 'stroke', stroke: colors.background, strokeWidth: 3, strokeLinejoin: 'round' } as const;
const levelColor = (level: string) => token(`color--status--${levelSeverity(level)}--default`);

const stamp = (t: number) => rfc3339(new Date(t));

const barTitle = (kind: string, b: Bar, inProgress: boolean) => {
  if (!b.open) {
    return `${kind} ${b.name}: ${stamp(b.from)} to ${stamp(b.to)} (${minutes(span(b.from, b.to))})`;
  }
  return inProgress
    ? `${kind} ${b.name}: updating since ${stamp(b.from)}, last seen updating at ${stamp(b.to)}`
    : `${kind} ${b.name}: began updating at ${stamp(b.from)}; its end was not seen`;
};

const stallTitle = (s: StallBand) => {
  let until = stamp(s.to);
  if (s.ongoing) {
    until = `${until}, still active at the end`;
  } else if (s.lastSeen) {
    until = `${until} (last seen: it ended while no operator watched)`;
  }
  return `${s.level}: ${s.summary}\n${stamp(s.from)} to ${until} (${minutes(span(s.from, s.to))})`;
};

const unobservedTitle = (u: Unobserved) =>
  u.since
    ? `Not observed since ${stamp(u.from)}, when the record was last written: no operator has seen the update since`
    : `Not observed from ${stamp(u.from)} to ${stamp(u.to)} (${minutes(span(u.from, u.to))}): no operator saw the update`;

const estimateTitle = (e: EstimateMark) =>
  `At ${e.completionPercent}% (${stamp(e.observedAt)}) the control plane's completion was estimated at ${stamp(e.estimated!)}` +
  (e.late !== undefined ? `: ${late(e.late)}` : '');

const Swatch = ({ fill, dashed, children }: { fill: string; dashed?: boolean; children: string }) => (
  <span style={{ display: 'inline-flex', alignItems: 'center', gap: 'var(--pf-t--global--spacer--xs)' }}>
    <svg width={20} height={10} aria-hidden="true">
      <rect x={1} y={1} width={18} height={8} style={{ fill, fillOpacity: dashed ? 0.45 : 1, stroke: dashed ? fill : 'none', strokeDasharray: dashed ? '4 2' : undefined }} />
    </svg>
    {children}
  </span>
);

export const UpdateTimeline = ({ picture: pic, title }: { picture: Picture; title: string }) => {
  // Pattern ids are the document's: one of its own per picture.
  const hatch = `${useId().replace(/:/g, '')}-hatch`;
  const length = Math.max(pic.to - pic.from, 60 * 1000);
  const x = (t: number) => labelWidth + ((t - pic.from) / length) * (width - labelWidth - right);
  const w = (from: number, to: number) => Math.max(x(to) - x(from), 2);
  const inProgress = pic.lastSeen !== undefined;
  const lanes = pic.stalls.length + pic.operators.length + pic.pools.length + pic.estimates.length;
  const plotBottom = top + lanes * lane;
  const y = (i: number) => top + i * lane;
  const barY = (i: number) => y(i) + (lane - barHeight) / 2;
  const mid = (i: number) => y(i) + lane / 2;
  const label = (i: number, text: string) => (
    <text x={labelWidth - 8} y={mid(i)} textAnchor="end" dominantBaseline="middle" style={{ fill: colors.text, fontSize }}>
      {oneLineCharacters(text, 32)}
    </text>
  );
  const bar = (i: number, b: Bar, fill: string, testId: string, kind: string) => (
    <g key={`${testId}/${b.name}`} data-test={testId} data-name={b.name} data-open={String(b.open)}>
      <title>{barTitle(kind, b, inProgress)}</title>
      {label(i, kind === 'Pool' ? `pool ${b.name}` : b.name)}
      <rect
        x={x(b.from)}
        y={barY(i)}
        width={w(b.from, b.to)}
        height={barHeight}
        rx={2}
        style={{ fill, fillOpacity: b.open ? 0.45 : 1, stroke: b.open ? fill : 'none', strokeDasharray: b.open ? '4 2' : undefined }}
      />
    </g>
  );
  // A marker's label reads from its line into the picture, in its row: the
  // start's to the right, an end's to the left.
  const marker = (testId: string, at: number, text: string, stroke: string, row: number, dashed = false) => (
    <g data-test={testId}>
      <line x1={x(at)} x2={x(at)} y1={top - 16} y2={plotBottom + 4} style={{ stroke, strokeWidth: 2, strokeDasharray: dashed ? '4 3' : undefined }} />
      <text x={x(at)} y={plotBottom + 14 * (row + 1)} textAnchor={row === 0 ? 'start' : 'end'} style={{ fill: stroke, fontSize, ...halo }}>
        {text}
      </text>
    </g>
  );
  // The lanes, top to bottom: stalls, operators, pools, estimates.
  const operatorsFrom = pic.stalls.length;
  const poolsFrom = operatorsFrom + pic.operators.length;
  const estimatesFrom = poolsFrom + pic.pools.length;
  const unseen = [
    pic.unseenOperators > 0 && `${plural(pic.unseenOperators, 'ClusterOperator')} updated unseen, with no start to draw`,
    pic.unseenPools > 0 && `${plural(pic.unseenPools, 'pool')} with no start seen`,
  ].filter((s): s is string => !!s);
  return (
    <figure data-test="update-timeline" style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${plotBottom + bottom}`} width="100%" role="img" aria-label={title}>
        <title>{title}</title>
        <defs>
          <pattern id={hatch} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1={0} y1={0} x2={0} y2={6} style={{ stroke: colors.subtle, strokeWidth: 2, strokeOpacity: 0.6 }} />
          </pattern>
        </defs>
        <text x={0} y={12} style={{ fill: colors.subtle, fontSize }}>
          UTC
        </text>
        {pic.ticks.map((t) => (
          <g key={t.at}>
            <line x1={x(t.at)} x2={x(t.at)} y1={18} y2={plotBottom} style={{ stroke: colors.grid, strokeWidth: 1 }} />
            <text x={x(t.at)} y={12} textAnchor="middle" style={{ fill: colors.subtle, fontSize }}>
              {t.label}
            </text>
          </g>
        ))}
        {pic.unobserved.map((u) => (
          <g key={u.from} data-test="timeline-not-observed" data-since={String(u.since)}>
            <title>{unobservedTitle(u)}</title>
            <rect x={x(u.from)} y={top - 14} width={w(u.from, u.to)} height={plotBottom - top + 14} style={{ fill: `url(#${hatch})` }} />
            {/* Over the span's middle, or from its start when the span is narrower than its label. */}
            <text
              x={w(u.from, u.to) > 100 ? (x(u.from) + x(u.to)) / 2 : x(u.from) + 2}
              y={top - 4}
              textAnchor={w(u.from, u.to) > 100 ? 'middle' : 'start'}
              style={{ fill: colors.subtle, fontSize: fontSize - 1, ...halo }}
            >
              {u.since ? 'not observed since last seen' : 'not observed'}
            </text>
          </g>
        ))}
        {pic.stalls.map((s, i) => (
          <g key={s.name} data-test="timeline-stall" data-level={s.level} data-name={s.name}>
            <title>{stallTitle(s)}</title>
            <rect x={x(s.from)} y={top} width={w(s.from, s.to)} height={plotBottom - top} style={{ fill: levelColor(s.level), fillOpacity: 0.12 }} />
            {label(i, `${s.level}: ${s.name}`)}
            <rect x={x(s.from)} y={barY(i)} width={w(s.from, s.to)} height={barHeight} rx={2} style={{ fill: levelColor(s.level) }} />
          </g>
        ))}
        {pic.operators.map((b, i) => bar(operatorsFrom + i, b, colors.operator, 'timeline-operator', 'ClusterOperator'))}
        {pic.pools.map((b, i) => bar(poolsFrom + i, b, colors.pool, 'timeline-pool', 'Pool'))}
        {pic.estimates.map((e, n) => {
          const i = estimatesFrom + n;
          // The miss beside the estimate, on the side with room for it.
          const after = x(e.estimatedAt) < width - 120;
          return (
            <g key={e.percent} data-test="timeline-estimate" data-percent={e.percent} data-beyond={String(e.beyond)}>
              <title>{estimateTitle(e)}</title>
              {label(i, `estimate at ${e.completionPercent}%`)}
              <line x1={x(e.observedAt)} x2={x(e.estimatedAt)} y1={mid(i)} y2={mid(i)} style={{ stroke: colors.subtle, strokeDasharray: '3 3' }} />
              <circle cx={x(e.observedAt)} cy={mid(i)} r={3} style={{ fill: colors.subtle }} />
              <path d={`M ${x(e.estimatedAt)} ${mid(i) - 6} l 6 6 l -6 6 l -6 -6 z`} style={{ fill: colors.text }} />
              <text
                x={x(e.estimatedAt) + (after ? 10 : -10)}
                y={mid(i)}
                textAnchor={after ? 'start' : 'end'}
                dominantBaseline="middle"
                style={{ fill: colors.text, fontSize, ...halo }}
              >
                {e.beyond ? `beyond, at ${stamp(e.estimated!)}` : e.late !== undefined ? late(e.late) : ''}
              </text>
            </g>
          );
        })}
        {marker('timeline-started', pic.started, 'started', colors.text, 0)}
        {pic.completed !== undefined && marker('timeline-completed', pic.completed, 'control plane completed', colors.completed, 1)}
        {pic.abandoned !== undefined && marker('timeline-abandoned', pic.abandoned, 'abandoned for another update', colors.subtle, 1)}
        {pic.lastSeen !== undefined && marker('timeline-last-seen', pic.lastSeen, 'last seen', colors.subtle, 1, true)}
        {pic.updateCompleted !== undefined && marker('timeline-update-completed', pic.updateCompleted, 'update completed, its pools too', colors.completed, 2)}
      </svg>
      <figcaption style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--pf-t--global--spacer--md)', fontSize: 'var(--pf-t--global--font--size--body--sm)' }}>
        {pic.operators.length > 0 && <Swatch fill={colors.operator}>ClusterOperator updating</Swatch>}
        {pic.pools.length > 0 && <Swatch fill={colors.pool}>pool updating</Swatch>}
        {[...pic.operators, ...pic.pools].some((b) => b.open) && <Swatch fill={colors.subtle} dashed>{inProgress ? 'still updating when last seen' : 'end not seen'}</Swatch>}
        {[...new Set(pic.stalls.map((s) => levelSeverity(s.level)))].map((severity) => {
          // Levels of one colour, Error and Critical, share a swatch.
          const levels = [...new Set(pic.stalls.filter((s) => levelSeverity(s.level) === severity).map((s) => s.level))];
          return <Swatch key={severity} fill={levelColor(levels[0])}>{`${levels.join(' or ')} stall`}</Swatch>;
        })}
        {pic.unobserved.length > 0 && <Swatch fill={`url(#${hatch})`}>not observed</Swatch>}
        {pic.estimates.length > 0 && <span>◆ estimated completion, taken at ●</span>}
        {unseen.length > 0 && <span data-test="timeline-unseen">{unseen.join('; ')}</span>}
      </figcaption>
    </figure>
  );
};
