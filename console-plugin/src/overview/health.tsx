// The line in Overview → Status: a console.dashboards/overview/health/resource
// extension (frontend/packages/console-dynamic-plugin-sdk/src/extensions/
// dashboards.ts DashboardsOverviewHealthResourceSubsystem). The console
// watches `resources` and hands the results, keyed as here, to
// `healthHandler` (ResourceHealthHandler: WatchK8sResults → SubsystemHealth)
// and to `Popup`.
import { Link } from 'react-router';
import type {
  HealthState,
  ResourceHealthHandler,
  WatchK8sResources,
  WatchK8sResults,
} from '@openshift-console/dynamic-plugin-sdk';
import {
  ClusterVersionName,
  ClusterVersionProgressInsightGVK,
  MachineConfigPoolProgressInsightGVK,
  TabPath,
  UpdateHealthInsightGVK,
  UpdateStatusGVK,
  UpdateStatusName,
} from '../model/models';
import type {
  ClusterVersionProgressInsight,
  MachineConfigPoolProgressInsight,
  UpdateHealthInsight,
  UpdateStatus,
} from '../model/types';
import { overviewHealth } from '../view/overview';

type Resources = {
  clusterVersion: ClusterVersionProgressInsight;
  pools: MachineConfigPoolProgressInsight[];
  health: UpdateHealthInsight[];
  // updateStatus holds what the UpdateInformers report, their health
  // among it.
  updateStatus: UpdateStatus;
};

export const resources: WatchK8sResources<Resources> = {
  clusterVersion: { groupVersionKind: ClusterVersionProgressInsightGVK, name: ClusterVersionName },
  pools: { groupVersionKind: MachineConfigPoolProgressInsightGVK, isList: true },
  health: { groupVersionKind: UpdateHealthInsightGVK, isList: true },
  updateStatus: { groupVersionKind: UpdateStatusGVK, name: UpdateStatusName },
};

const input = (r: WatchK8sResults<Resources>) => ({
  clusterVersion: r.clusterVersion ?? { loaded: false },
  pools: r.pools ?? { loaded: false },
  health: r.health ?? { loaded: false },
  updateStatus: r.updateStatus ?? { loaded: false },
});

export const healthHandler: ResourceHealthHandler<Resources> = (r) => {
  const h = overviewHealth(input(r));
  // HealthState is a string enum whose values overviewHealth returns.
  return { state: h.state as HealthState, message: h.message };
};

export const Popup = (props: WatchK8sResults<Resources>) => {
  const h = overviewHealth(input(props));
  return (
    <div data-test="update-insights-popup">
      <p>{h.message || 'Loading…'}</p>
      <Link to={TabPath}>View update insights</Link>
    </div>
  );
};
