// How the stand-in reaches the kube-apiserver: as the console does, through
// a proxy on its own origin under /api/kubernetes/ (the console's Go
// backend proxies that path with the user's token; here the e2e harness's
// proxy does it with the API server's admin credentials), requests over
// fetch and watches over WebSockets. A page opened with ?user=NAME asks
// the proxy to impersonate NAME, so that a second identity, with only the
// RBAC the test grants it, can be tried: it says so in a cookie, which
// WebSockets carry too (they cannot carry headers of the page's choosing).

export const apiPrefix = '/api/kubernetes';

// UserCookie is the cookie the harness's proxy turns into the API
// server's Impersonate-User (test/internal/consolestandin).
export const UserCookie = 'console-standin-user';

const user = new URLSearchParams(window.location.search).get('user');
document.cookie = user ? `${UserCookie}=${encodeURIComponent(user)}; path=/; SameSite=Strict` : `${UserCookie}=; path=/; max-age=0`;

// HttpError is what the console's fetch rejects with
// (frontend/packages/console-dynamic-plugin-sdk/src/utils/error/http-error.ts
// of openshift/console): the message, and the response, whose status the
// plugin reads to tell a named object that does not exist (404).
export class HttpError extends Error {
  response: { status: number };
  json?: unknown;
  constructor(message: string, status: number, json?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.response = { status };
    this.json = json;
  }
}

export const apiFetch = async (path: string, init: RequestInit = {}): Promise<Response> => {
  const response = await fetch(`${apiPrefix}${path}`, init);
  if (!response.ok) {
    // The console's coFetch takes the message of the Status the API server
    // returns (frontend/public/co-fetch.ts validateStatus).
    let json: { message?: string } | undefined;
    try {
      json = await response.json();
    } catch {
      json = undefined;
    }
    throw new HttpError(json?.message ?? response.statusText, response.status, json);
  }
  return response;
};

// apiWebSocket opens a WebSocket to the API server, as the console's
// watches do (frontend/packages/console-dynamic-plugin-sdk/src/utils/k8s/ws-factory.ts).
export const apiWebSocket = (path: string) =>
  new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${apiPrefix}${path}`);

export const apiJSON = async <T>(path: string, init: RequestInit = {}): Promise<T> => (await apiFetch(path, init)).json();

export type GroupVersionKind = { group?: string; version: string; kind: string };

export type Model = { path: string; plural: string; namespaced: boolean };

const discovered = new Map<string, Promise<Model>>();

let groupVersions: Promise<Set<string>> | undefined;

// servedGroupVersions are the group versions the API server serves, from
// the list of its groups, which the console reads before their resources:
// a kind of a group it does not serve (HyperShift's, on most clusters) is
// then absent without a request that fails, and the browser logs no 404.
const servedGroupVersions = (): Promise<Set<string>> => {
  if (!groupVersions) {
    groupVersions = apiJSON<{ groups: { versions: { groupVersion: string }[] }[] }>('/apis').then(
      (list) => new Set(['v1', ...list.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))]),
    );
    groupVersions.catch(() => {
      groupVersions = undefined;
    });
  }
  return groupVersions;
};

// modelFor finds a kind's resource by API discovery, as the console builds
// its models from discovery (frontend/public/module/k8s/discover-resources.ts):
// a kind the API server does not serve is an error, as the console's
// NoModelError is.
export const modelFor = (gvk: GroupVersionKind): Promise<Model> => {
  const groupVersion = gvk.group ? `/apis/${gvk.group}/${gvk.version}` : `/api/${gvk.version}`;
  const key = `${groupVersion}/${gvk.kind}`;
  let m = discovered.get(key);
  if (!m) {
    m = servedGroupVersions().then((served) => {
      if (!served.has(gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version)) {
        throw new Error(`the API server does not serve ${groupVersion}`);
      }
      return apiJSON<{ resources: { name: string; kind: string; namespaced: boolean }[] }>(groupVersion);
    }).then((list) => {
      const r = list.resources.find((res) => res.kind === gvk.kind && !res.name.includes('/'));
      if (!r) {
        throw new Error(`the API server does not serve ${gvk.kind} in ${groupVersion}`);
      }
      return { path: groupVersion, plural: r.name, namespaced: r.namespaced };
    });
    discovered.set(key, m);
    m.catch(() => discovered.delete(key));
  }
  return m;
};

// served says whether the API server serves a kind: what a
// console.flag/model extension sets its flag from.
export const served = (gvk: GroupVersionKind): Promise<boolean> =>
  modelFor(gvk).then(
    () => true,
    () => false,
  );
