// What the console reads of the plugin (console-extensions.json and
// package.json's consolePlugin): each extension is gated on flags the
// plugin sets from the API (console.flag/model), so that a console shows
// nothing of it on a cluster without the insights; the hosted clusters'
// extensions also on HyperShift's HostedCluster, since every cluster that
// runs the operator serves HostedClusterProgressInsight; the page, its
// navigation item and the links to the tabs agree on their paths; and
// every code reference is to a module the plugin exposes.
import * as fs from 'fs';
import * as path from 'path';
import { HostedClustersPath, HostedClusterTabPath, TabHref, TabPath } from '../model/models';

type Extension = { type: string; properties: Record<string, unknown>; flags?: { required?: string[] } };

const root = path.resolve(__dirname, '../..');
const extensions = JSON.parse(fs.readFileSync(path.join(root, 'console-extensions.json'), 'utf8')) as Extension[];
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { consolePlugin: { exposedModules: Record<string, string> } };

// flagModels are the kinds each flag is set from.
const flagModels = Object.fromEntries(
  extensions
    .filter((e) => e.type === 'console.flag/model')
    .map((e) => [e.properties.flag as string, (e.properties.model as { kind: string }).kind]),
);

const hosted = (e: Extension) =>
  (e.properties.model as { kind?: string } | undefined)?.kind === 'HostedCluster' ||
  e.type === 'console.page/route' ||
  e.type === 'console.navigation/href';

test.each(extensions.filter((e) => e.type !== 'console.flag/model').map((e) => [e.type, e]))('%s requires the flags of its kinds', (_, e) => {
  const kinds = (e.flags?.required ?? []).map((f) => flagModels[f]).sort();
  expect(kinds).toEqual(hosted(e) ? ['HostedCluster', 'HostedClusterProgressInsight'] : ['ClusterVersionProgressInsight']);
});

test('the hosted clusters have a tab, a page and a navigation item to it', () => {
  const of = (type: string) => extensions.filter((e) => e.type === type && hosted(e)).map((e) => e.properties);
  expect(of('console.tab/horizontalNav')).toEqual([
    expect.objectContaining({
      model: { group: 'hypershift.openshift.io', version: 'v1beta1', kind: 'HostedCluster' },
      page: { name: 'Update insights', href: TabHref },
    }),
  ]);
  expect(HostedClusterTabPath('clusters', 'ledger')).toBe('/k8s/ns/clusters/hypershift.openshift.io~v1beta1~HostedCluster/ledger/update-insights');
  expect(of('console.page/route')).toEqual([expect.objectContaining({ path: HostedClustersPath, exact: true })]);
  expect(of('console.navigation/href')).toEqual([expect.objectContaining({ href: HostedClustersPath, perspective: 'admin', section: 'compute' })]);
  expect(TabPath).toBe(`/settings/cluster/${TabHref}`);
});

test('every code reference is to an exposed module', () => {
  const refs = JSON.stringify(extensions).match(/"\$codeRef":"[^"]+"/g) ?? [];
  expect(refs.length).toBeGreaterThanOrEqual(6);
  for (const r of refs) {
    const module = r.slice('"$codeRef":"'.length, -1).split('.')[0];
    expect(Object.keys(pkg.consolePlugin.exposedModules)).toContain(module);
  }
});
