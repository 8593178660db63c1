// Loading a dynamic plugin as the console does. The console's PluginStore
// (@openshift/dynamic-plugin-sdk, PluginLoader) fetches
// /api/plugins/<name>/plugin-manifest.json
// (frontend/packages/console-dynamic-plugin-sdk/src/runtime/plugin-init.ts
// of openshift/console), adds the manifest's loadScripts from its baseURL,
// waits for the entry script to call window.__load_plugin_entry__(name,
// container) (registrationMethod "callback"), calls container.init with
// webpack's share scope, and resolves each extension's {$codeRef:
// "module.export"} with container.get(module). This does the same for one
// plugin, with the share scope the stand-in's ModuleFederationPlugin
// declares (standin/webpack.config.js).

declare const __webpack_init_sharing__: (scope: string) => Promise<void>;
declare const __webpack_share_scopes__: Record<string, Record<string, unknown>>;

type Container = { init: (scope: unknown) => Promise<void> | void; get: (module: string) => Promise<() => Record<string, unknown>> };

export type Extension = {
  type: string;
  properties: Record<string, unknown>;
  flags?: { required?: string[]; disallowed?: string[] };
};

export type Manifest = {
  name: string;
  baseURL: string;
  loadScripts: string[];
  registrationMethod: string;
  extensions: Extension[];
};

export type LoadedPlugin = {
  manifest: Manifest;
  resolve: (codeRef: unknown) => Promise<unknown>;
};

// The share scope: what the console's initSharedScope and
// monkeyPatchSharedScope make (src/runtime/plugin-shared-modules.ts),
// react-router also under its two deprecated names.
const sharedScope = async () => {
  await __webpack_init_sharing__('default');
  const scope = __webpack_share_scopes__.default;
  scope['react-router-dom'] = scope['react-router'];
  scope['react-router-dom-v5-compat'] = scope['react-router'];
  return scope;
};

// StandinScope names the stand-in's build in the share scope (webpack.config.js
// output.uniqueName): the modules it provides are the console's.
const StandinScope = 'console_standin';

export type SharedUse = { module: string; version: string; from: string };

// sharedUses are the shared modules' versions that were loaded, and from
// whose build: the stand-in's (the console's) or a plugin's own copy, which
// a plugin falls back to when its required range excludes the console's
// version. e2e/browse.js reads them from window.__standin_shared__.
const sharedUses = (): SharedUse[] => {
  const out: SharedUse[] = [];
  const scope = (__webpack_share_scopes__.default ?? {}) as Record<string, Record<string, { from?: string; loaded?: unknown }>>;
  for (const [module, versions] of Object.entries(scope)) {
    for (const [version, v] of Object.entries(versions)) {
      if (v.loaded) {
        out.push({ module, version, from: v.from ?? '' });
      }
    }
  }
  return out;
};
// provided are the modules the stand-in provides, as the console does.
const provided = (): string[] =>
  Object.entries((__webpack_share_scopes__.default ?? {}) as Record<string, Record<string, { from?: string }>>)
    .filter(([, versions]) => Object.values(versions).some((v) => v.from === StandinScope))
    .map(([module]) => module);
(window as unknown as Record<string, unknown>).__standin_shared__ = () => ({ provided: provided(), uses: sharedUses(), standin: StandinScope });

const entries = new Map<string, (c: Container) => void>();
(window as unknown as Record<string, unknown>).__load_plugin_entry__ = (name: string, container: Container) => {
  const done = entries.get(name);
  if (!done) {
    console.error(`plugin entry of ${name} registered, but no such plugin is being loaded`);
    return;
  }
  done(container);
};

const loadScript = (src: string) =>
  new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`failed to load ${src}`));
    document.head.appendChild(s);
  });

// parseCodeRef reads "module.export" as the PluginLoader does
// (parseEncodedCodeRef: /^([^.\s]+)(?:\.([^.\s]+))?$/, export "default").
const parseCodeRef = (ref: string) => {
  const m = ref.match(/^([^.\s]+)(?:\.([^.\s]+))?$/);
  if (!m) {
    throw new Error(`invalid code reference ${ref}`);
  }
  return { module: m[1], exportName: m[2] || 'default' };
};

export const loadPlugin = async (name: string): Promise<LoadedPlugin> => {
  const manifestURL = `/api/plugins/${name}/plugin-manifest.json`;
  const response = await fetch(manifestURL);
  if (!response.ok) {
    throw new Error(`${manifestURL}: ${response.status} ${response.statusText}`);
  }
  const manifest = (await response.json()) as Manifest;
  if (manifest.registrationMethod !== 'callback') {
    throw new Error(`${name}: registrationMethod ${manifest.registrationMethod}, not callback: built for another console`);
  }
  const registered = new Promise<Container>((resolve) => entries.set(manifest.name, resolve));
  await Promise.all(manifest.loadScripts.map((s) => loadScript(new URL(s, new URL(manifest.baseURL, window.location.href)).toString())));
  const container = await registered;
  await container.init(await sharedScope());
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const resolve = async (codeRef: unknown) => {
    const { module, exportName } = parseCodeRef((codeRef as { $codeRef: string }).$codeRef);
    let m = modules.get(module);
    if (!m) {
      m = container.get(module).then((factory) => factory());
      modules.set(module, m);
    }
    const exported = (await m)[exportName];
    if (exported === undefined) {
      throw new Error(`${name}: module ${module} has no export ${exportName}`);
    }
    return exported;
  };
  return { manifest, resolve };
};
