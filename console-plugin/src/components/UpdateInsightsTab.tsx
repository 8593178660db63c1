// The "Update insights" tab of Administration → Cluster Settings: a
// console.tab/horizontalNav extension on config.openshift.io/v1
// ClusterVersion. The Cluster Settings page hands its ClusterVersion to
// its HorizontalNav (frontend/public/components/cluster-settings/
// cluster-settings.tsx ClusterSettingsPage, obj: { data: ClusterVersion }),
// and the HorizontalNav adds the tabs whose model's reference matches that
// object's (frontend/public/components/utils/horizontal-nav.tsx,
// referenceForExtensionModel(tab.properties.model) === referenceFor(obj)).
// All it decides is delegated to the pure modules under src/view.
import { Alert, AlertVariant, Spinner, Stack, StackItem } from '@patternfly/react-core';
import { buildStatus, StatusView } from '../view/status';
import { sinceStart } from '../view/format';
import { ControlPlaneCard } from './ControlPlaneCard';
import { HealthSection } from './HealthSection';
import { InformersSection } from './InformersSection';
import { PoolCard } from './PoolCard';
import { behindLine, imageBuildLine } from '../view/pools';
import { drainsHeld } from '../view/drains';
import { HistorySection } from './HistorySection';
import { PreChecksSection } from './PreChecksSection';
import { useInsights } from './useInsights';
import { useNow } from './useNow';

const errorText = (e: unknown) => (e as { message?: string })?.message ?? String(e);

const UpdateInsightsTab = () => {
  const { insights, plans, loaded, errors } = useInsights();
  const now = useNow();
  if (!loaded && errors.length === 0) {
    return <Spinner aria-label="Loading the update insights" />;
  }
  let view: StatusView | undefined;
  let buildError: string | undefined;
  try {
    view = buildStatus(insights, now);
  } catch (e) {
    buildError = errorText(e);
  }
  return (
    // The console's HorizontalNav puts the tab in its page body already: a
    // PageSection would bring PatternFly's Page (some 50 KB) for padding.
    <div data-test="update-insights" style={{ padding: 'var(--pf-t--global--spacer--lg)' }}>
      <Stack hasGutter>
        {errors.map((e, i) => (
          <StackItem key={i}>
            <Alert isInline variant={AlertVariant.danger} title={`Cannot read the insights: ${errorText(e)}`} />
          </StackItem>
        ))}
        {buildError && (
          <StackItem>
            <Alert isInline variant={AlertVariant.warning} title={buildError} />
          </StackItem>
        )}
        {view?.warnings.map((w) => (
          <StackItem key={w}>
            <Alert isInline variant={AlertVariant.warning} title={w} data-test="warning" />
          </StackItem>
        ))}
        {view && !view.updating && (
          <StackItem data-test="not-updating">
            <p>{view.notUpdating}</p>
            {view.controlPlane.informers.map((p) => (
              <p key={`${p.informer}/${p.uid}`}>{`${p.summary} (${p.note})`}</p>
            ))}
            {[...(view.controlPlaneNodes ? [view.controlPlaneNodes] : []), ...view.workerPools]
              .filter((p) => p.configurationRollout)
              .map((p) => (
                <p key={p.name}>{`${p.kind} ${p.name}: ${p.configurationRollout}.`}</p>
              ))}
            {view.workerPools
              .filter((p) => p.behind)
              .map((p) => (
                <p key={`${p.name}/behind`} data-test={`behind-${p.name}`}>
                  {behindLine(p)}
                </p>
              ))}
          </StackItem>
        )}
        {view?.updating && (
          <>
            <StackItem>
              <ControlPlaneCard view={view} />
            </StackItem>
            {view.controlPlaneNodes && !view.controlPlaneNodesText && (
              <StackItem>
                <PoolCard
                  pool={view.controlPlaneNodes}
                  title="Control plane nodes"
                  drains={drainsHeld(view.health, view.controlPlaneNodes.nodes.map((n) => n.name))}
                  // status says the build under its "Control Plane Nodes"
                  // heading, which it prints only for a pool with nodes.
                  imageBuild={view.controlPlaneNodes.nodes.length > 0 ? imageBuildLine(view.controlPlaneNodes, now) : undefined}
                />
              </StackItem>
            )}
            {view.workerPools.some((p) => p.assessment !== 'Empty') &&
              view.workerPools.map((p) =>
                p.assessment === 'Empty' ? (
                  <StackItem key={p.name} data-test={`empty-pool-${p.name}`}>
                    <p>{`${p.kind} ${p.name}: Empty, ${p.status}`}</p>
                  </StackItem>
                ) : (
                  <StackItem key={p.name}>
                    <PoolCard
                      pool={p}
                      drains={drainsHeld(view.health, p.nodes.map((n) => n.name))}
                      imageBuild={imageBuildLine(p, now)}
                    />
                  </StackItem>
                ),
              )}
          </>
        )}
        {view && (view.updating || view.health.length > 0) && (
          <StackItem>
            <HealthSection health={view.health} startedSince={sinceStart(view.controlPlane.startedAt, now)} />
          </StackItem>
        )}
        {view && (
          <StackItem>
            <InformersSection informers={view.informers} />
          </StackItem>
        )}
        <StackItem>
          <PreChecksSection plans={plans} now={now} />
        </StackItem>
        <StackItem>
          <HistorySection now={now} />
        </StackItem>
      </Stack>
    </div>
  );
};

export default UpdateInsightsTab;
