// The plugin's view of the operator's API: group openshift.muller.dev,
// version v1alpha1, plurals as in manifests/*.crd.yaml. The K8sModel of
// UpdatePlan is what the SDK's k8sPatchResource builds its URL from
// (frontend/packages/console-dynamic-plugin-sdk/src/utils/k8s/k8s-resource.ts
// of openshift/console, resourceURL: apiGroup, apiVersion, plural).

export const group = 'openshift.muller.dev';
export const version = 'v1alpha1';

export const gvk = (kind: string) => ({ group, version, kind });

export const ClusterVersionProgressInsightGVK = gvk('ClusterVersionProgressInsight');
export const ClusterOperatorProgressInsightGVK = gvk('ClusterOperatorProgressInsight');
export const MachineConfigPoolProgressInsightGVK = gvk('MachineConfigPoolProgressInsight');
export const NodeProgressInsightGVK = gvk('NodeProgressInsight');
export const UpdateHealthInsightGVK = gvk('UpdateHealthInsight');
export const UpdateStatusGVK = gvk('UpdateStatus');
export const UpdatePlanGVK = gvk('UpdatePlan');
export const UpdateInformerGVK = gvk('UpdateInformer');
export const UpdateRecordGVK = gvk('UpdateRecord');
export const HostedClusterProgressInsightGVK = gvk('HostedClusterProgressInsight');
export const NodePoolProgressInsightGVK = gvk('NodePoolProgressInsight');

// UpdateStatusName is the one UpdateStatus (types_updatestatus.go).
export const UpdateStatusName = 'cluster';

// ClusterVersionName is the ClusterVersion, and so its insight
// (pkg/names).
export const ClusterVersionName = 'version';

export const UpdatePlanModel = {
  apiGroup: group,
  apiVersion: version,
  kind: 'UpdatePlan',
  plural: 'updateplans',
  abbr: 'UPLAN',
  label: 'UpdatePlan',
  labelPlural: 'UpdatePlans',
  namespaced: false,
};

// TabHref is the tab's path under Cluster Settings (/settings/cluster/<href>),
// the page.href of its extension in console-extensions.json.
export const TabHref = 'update-insights';
export const TabPath = `/settings/cluster/${TabHref}`;

// HostedClusterReference is HyperShift's HostedCluster as the console names
// a kind in its URLs (group~version~kind, frontend/public/module/k8s/k8s.ts
// referenceForModel): its details page is /k8s/ns/<namespace>/<reference>/<name>,
// and the hosted cluster tab, a console.tab/horizontalNav extension, is at
// <href> beneath it.
export const HostedClusterReference = 'hypershift.openshift.io~v1beta1~HostedCluster';
export const HostedClusterTabPath = (namespace: string, name: string) =>
  `/k8s/ns/${namespace}/${HostedClusterReference}/${name}/${TabHref}`;

// HostedClustersPath is the page of every hosted cluster's update, the
// path of its console.page/route extension and its navigation item.
export const HostedClustersPath = '/update-insights/hosted-clusters';
