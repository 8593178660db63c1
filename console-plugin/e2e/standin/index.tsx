// The console stand-in page: it loads the built plugin as the console does
// (plugin.ts), sets each console.flag/model flag from API discovery, and
// puts the plugin's extensions where the console would: the
// console.tab/horizontalNav tabs on a resource's details page, given the
// watched object as the console's HorizontalNav gives its obj
// (frontend/public/components/utils/horizontal-nav.tsx): ClusterVersion's in
// a Cluster Settings page (/settings/cluster/<href>), a namespaced
// resource's under /k8s/ns/<namespace>/<group>~<version>~<kind>/<name>/<href>
// (frontend/public/components/app-contents.tsx); each console.page/route at
// its path; the administrator's console.navigation/href items in a
// navigation bar on every page; and the
// console.dashboards/overview/health/resource lines in an Overview status
// card (/dashboards), whose resources are watched and handed to the
// healthHandler and the popup as the console's dashboard does
// (frontend/public/components/dashboard/dashboards-page/cluster-dashboard/
// health-item.tsx ResourceHealthItem). It is not the console: no masthead, navigation sections,
// authentication or styles of its own beyond PatternFly's.
import { ComponentType, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Navigate, Route, Routes, useParams } from 'react-router';
import { useK8sWatchResource, useK8sWatchResources } from '@openshift-console/dynamic-plugin-sdk';
import { served } from './api';
import { Extension, loadPlugin, LoadedPlugin } from './plugin';

const pluginName = 'update-insights-console-plugin';

type Resolved = {
  // tabs are by the reference of their model, group~version~kind.
  tabs: { reference: string; name: string; href: string; component: ComponentType<{ obj: unknown }> }[];
  pages: { path: string; exact?: boolean; component: ComponentType }[];
  nav: { id: string; name: string; href: string; section?: string }[];
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

// reference names a kind as the console's URLs do
// (frontend/public/module/k8s/k8s.ts referenceForExtensionModel).
const reference = (m: unknown) => {
  const model = m as { group?: string; version?: string; kind?: string };
  return `${model?.group ?? 'core'}~${model?.version}~${model?.kind}`;
};

const ClusterVersionReference = 'config.openshift.io~v1~ClusterVersion';

const resolveExtensions = async (plugin: LoadedPlugin): Promise<Resolved> => {
  const flags: Record<string, boolean> = {};
  for (const e of plugin.manifest.extensions.filter((x) => x.type === 'console.flag/model')) {
    flags[e.properties.flag as string] = await served(e.properties.model as { group: string; version: string; kind: string });
  }
  const live = plugin.manifest.extensions.filter((e) => enabled(e, flags));
  const tabs = await Promise.all(
    live
      .filter((e) => e.type === 'console.tab/horizontalNav')
      .map(async (e) => {
        const page = e.properties.page as { name: string; href: string };
        return {
          ...page,
          reference: reference(e.properties.model),
          component: (await plugin.resolve(e.properties.component)) as Resolved['tabs'][number]['component'],
        };
      }),
  );
  const pages = await Promise.all(
    live
      .filter((e) => e.type === 'console.page/route')
      .map(async (e) => ({
        path: e.properties.path as string,
        exact: e.properties.exact as boolean | undefined,
        component: (await plugin.resolve(e.properties.component)) as ComponentType,
      })),
  );
  // The administrator's perspective, the default one.
  const nav = live
    .filter((e) => e.type === 'console.navigation/href' && (e.properties.perspective ?? 'admin') === 'admin')
    .map((e) => e.properties as Resolved['nav'][number]);
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
  return { tabs, pages, nav, health };
};

const ClusterSettings = ({ tabs: all }: { tabs: Resolved['tabs'] }) => {
  const { tab } = useParams();
  const tabs = all.filter((t) => t.reference === ClusterVersionReference);
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

// ResourceDetails is a namespaced resource's details page, as the console
// routes it (/k8s/ns/:ns/:plural/:name, the plural a reference for a
// custom resource): the tabs of its kind, the selected one given the
// watched object.
const ResourceDetails = ({ tabs: all }: { tabs: Resolved['tabs'] }) => {
  const { ns, kind: ref, name, tab } = useParams();
  const [group, version, kind] = (ref ?? '').split('~');
  const [obj, loaded, error] = useK8sWatchResource<unknown>({ groupVersionKind: { group, version, kind }, namespace: ns, name });
  const tabs = all.filter((t) => t.reference === ref);
  const selected = tabs.find((t) => t.href === tab);
  const base = `/k8s/ns/${ns}/${ref}/${name}`;
  return (
    <div className="pf-v6-c-page__main-section">
      <h1 className="pf-v6-c-title pf-m-2xl">{`${kind} ${name}`}</h1>
      <nav className="pf-v6-c-tabs" aria-label={`${kind} ${name}`}>
        <ul className="pf-v6-c-tabs__list">
          <li className={`pf-v6-c-tabs__item${tab ? '' : ' pf-m-current'}`}>
            <Link className="pf-v6-c-tabs__link" to={base}>
              Details
            </Link>
          </li>
          {tabs.map((t) => (
            <li key={t.href} className={`pf-v6-c-tabs__item${t.href === tab ? ' pf-m-current' : ''}`}>
              <Link className="pf-v6-c-tabs__link" to={`${base}/${t.href}`} data-test={`standin-tab-${t.href}`}>
                {t.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {error ? <p data-test="standin-error">{`${kind} ${ns}/${name}: ${String(error)}`}</p> : null}
      {!tab && <p>{`The ${kind}'s details are the console's; the stand-in shows only the plugin's tabs.`}</p>}
      {selected && loaded && !error && <selected.component obj={obj} />}
      {tab && !selected && <p data-test="standin-no-tab">{`No tab ${tab}: the plugin's flag is off or it has no such tab.`}</p>}
    </div>
  );
};

// Nav is the administrator's navigation items the plugin adds, each in its
// section, as links.
const Nav = ({ items }: { items: Resolved['nav'] }) =>
  items.length === 0 ? null : (
    <nav className="pf-v6-c-nav" aria-label="Navigation" data-test="standin-nav">
      <ul className="pf-v6-c-nav__list">
        {items.map((i) => (
          <li key={i.id} className="pf-v6-c-nav__item">
            <Link className="pf-v6-c-nav__link" to={i.href} data-test="standin-nav-item" data-section={i.section ?? ''}>
              {i.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );

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
      <Nav items={resolved.nav} />
      <Routes>
        <Route path="/settings/cluster/:tab?" element={<ClusterSettings tabs={resolved.tabs} />} />
        <Route path="/k8s/ns/:ns/:kind/:name/:tab?" element={<ResourceDetails tabs={resolved.tabs} />} />
        {resolved.pages.map((p) => (
          // The console matches a page that is not exact beneath its path too.
          <Route key={p.path} path={p.exact ? p.path : `${p.path}/*`} element={<p.component />} />
        ))}
        <Route path="/dashboards" element={<Overview health={resolved.health} />} />
        <Route path="*" element={<Navigate to="/settings/cluster/update-insights" replace />} />
      </Routes>
    </BrowserRouter>
  );
};

createRoot(document.getElementById('app')!).render(<App />);
