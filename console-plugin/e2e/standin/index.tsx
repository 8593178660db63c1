// The console stand-in page: it loads the built plugin as the console does
// (plugin.ts), sets each console.flag/model flag from API discovery, and
// puts the plugin's extensions where the console would: the
// console.tab/horizontalNav tabs on ClusterVersion in a Cluster Settings
// page (/settings/cluster/<href>), given the ClusterVersion as the
// console's HorizontalNav gives its obj
// (frontend/public/components/utils/horizontal-nav.tsx), and the
// console.dashboards/overview/health/resource lines in an Overview status
// card (/dashboards), whose resources are watched and handed to the
// healthHandler and the popup as the console's dashboard does
// (frontend/public/components/dashboard/dashboards-page/cluster-dashboard/
// health-item.tsx ResourceHealthItem). It is not the console: no masthead, navigation,
// authentication or styles of its own beyond PatternFly's.
import { ComponentType, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Navigate, Route, Routes, useParams } from 'react-router';
import { useK8sWatchResource, useK8sWatchResources } from '@openshift-console/dynamic-plugin-sdk';
import { served } from './api';
import { Extension, loadPlugin, LoadedPlugin } from './plugin';

const pluginName = 'update-insights-console-plugin';

type Resolved = {
  tabs: { name: string; href: string; component: ComponentType<{ obj: unknown }> }[];
  health: {
    title: string;
    resources: Record<string, never>;
    healthHandler: (r: unknown) => { state: string; message?: string };
    popupTitle?: string;
    Popup?: ComponentType<Record<string, unknown>>;
  }[];
};

const enabled = (e: Extension, flags: Record<string, boolean>) =>
  (e.flags?.required ?? []).every((f) => flags[f]) && (e.flags?.disallowed ?? []).every((f) => !flags[f]);

const isClusterVersion = (m: unknown) => {
  const model = m as { group?: string; version?: string; kind?: string };
  return model?.group === 'config.openshift.io' && model.version === 'v1' && model.kind === 'ClusterVersion';
};

const resolveExtensions = async (plugin: LoadedPlugin): Promise<Resolved> => {
  const flags: Record<string, boolean> = {};
  for (const e of plugin.manifest.extensions.filter((x) => x.type === 'console.flag/model')) {
    flags[e.properties.flag as string] = await served(e.properties.model as { group: string; version: string; kind: string });
  }
  const live = plugin.manifest.extensions.filter((e) => enabled(e, flags));
  const tabs = await Promise.all(
    live
      .filter((e) => e.type === 'console.tab/horizontalNav' && isClusterVersion(e.properties.model))
      .map(async (e) => {
        const page = e.properties.page as { name: string; href: string };
        return { ...page, component: (await plugin.resolve(e.properties.component)) as Resolved['tabs'][number]['component'] };
      }),
  );
  const health = await Promise.all(
    live
      .filter((e) => e.type === 'console.dashboards/overview/health/resource')
      .map(async (e) => ({
        title: e.properties.title as string,
        popupTitle: e.properties.popupTitle as string | undefined,
        resources: (await plugin.resolve(e.properties.resources)) as Record<string, never>,
        healthHandler: (await plugin.resolve(e.properties.healthHandler)) as Resolved['health'][number]['healthHandler'],
        Popup: e.properties.popupComponent ? ((await plugin.resolve(e.properties.popupComponent)) as Resolved['health'][number]['Popup']) : undefined,
      })),
  );
  return { tabs, health };
};

const ClusterSettings = ({ tabs }: { tabs: Resolved['tabs'] }) => {
  const { tab } = useParams();
  const [cv, loaded, error] = useK8sWatchResource<unknown>({
    groupVersionKind: { group: 'config.openshift.io', version: 'v1', kind: 'ClusterVersion' },
    name: 'version',
  });
  const selected = tabs.find((t) => t.href === tab);
  return (
    <div className="pf-v6-c-page__main-section">
      <h1 className="pf-v6-c-title pf-m-2xl">Cluster Settings</h1>
      <nav className="pf-v6-c-tabs" aria-label="Cluster Settings">
        <ul className="pf-v6-c-tabs__list">
          <li className={`pf-v6-c-tabs__item${tab ? '' : ' pf-m-current'}`}>
            <Link className="pf-v6-c-tabs__link" to="/settings/cluster">
              Details
            </Link>
          </li>
          {tabs.map((t) => (
            <li key={t.href} className={`pf-v6-c-tabs__item${t.href === tab ? ' pf-m-current' : ''}`}>
              <Link className="pf-v6-c-tabs__link" to={`/settings/cluster/${t.href}`} data-test={`standin-tab-${t.href}`}>
                {t.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {error ? <p data-test="standin-error">{`ClusterVersion: ${String(error)}`}</p> : null}
      {!tab && <p>The ClusterVersion's details are the console's; the stand-in shows only the plugin's tabs.</p>}
      {selected && loaded && <selected.component obj={cv} />}
      {tab && !selected && <p data-test="standin-no-tab">{`No tab ${tab}: the plugin's flag is off or it has no such tab.`}</p>}
    </div>
  );
};

const HealthLine = ({ item }: { item: Resolved['health'][number] }) => {
  const results = useK8sWatchResources(item.resources);
  const [open, setOpen] = useState(false);
  const health = item.healthHandler(results);
  return (
    <div data-test={`standin-health-${item.title}`}>
      <button type="button" className="pf-v6-c-button pf-m-link pf-m-inline" onClick={() => setOpen(!open)} data-test="standin-health-toggle">
        {item.title}
      </button>{' '}
      <span data-test="standin-health-state">{health.state}</span> <span data-test="standin-health-message">{health.message}</span>
      {open && item.Popup && (
        <div className="pf-v6-c-popover" role="dialog" aria-label={item.popupTitle}>
          <div className="pf-v6-c-popover__content">
            <h2 className="pf-v6-c-title pf-m-md">{item.popupTitle}</h2>
            <item.Popup {...results} />
          </div>
        </div>
      )}
    </div>
  );
};

const Overview = ({ health }: { health: Resolved['health'] }) => (
  <div className="pf-v6-c-page__main-section">
    <h1 className="pf-v6-c-title pf-m-2xl">Overview</h1>
    <section className="pf-v6-c-card" data-test="standin-status-card">
      <div className="pf-v6-c-card__title">Status</div>
      <div className="pf-v6-c-card__body">
        {health.length === 0 && <p data-test="standin-no-health">No status line from the plugin.</p>}
        {health.map((h) => (
          <HealthLine key={h.title} item={h} />
        ))}
      </div>
    </section>
  </div>
);

const App = () => {
  const [resolved, setResolved] = useState<Resolved>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    loadPlugin(pluginName)
      .then(resolveExtensions)
      .then(setResolved)
      .catch((e: Error) => {
        console.error(`loading ${pluginName}:`, e);
        setError(String(e));
      });
  }, []);
  if (error) {
    return <p data-test="standin-error">{error}</p>;
  }
  if (!resolved) {
    return <p>Loading the plugin…</p>;
  }
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/settings/cluster/:tab?" element={<ClusterSettings tabs={resolved.tabs} />} />
        <Route path="/dashboards" element={<Overview health={resolved.health} />} />
        <Route path="*" element={<Navigate to="/settings/cluster/update-insights" replace />} />
      </Routes>
    </BrowserRouter>
  );
};

createRoot(document.getElementById('app')!).render(<App />);
