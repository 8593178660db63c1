// The stand-in's @openshift-console/dynamic-plugin-sdk: the part of the
// SDK's runtime API the plugin consumes, backed by the real kube-apiserver.
// The console shares its own implementation of this module with plugins
// (frontend/packages/console-dynamic-plugin-sdk/src/api/core-api.ts of
// openshift/console); the signatures and return shapes here are those
// files', named at each function. What differs is said at each one and in
// docs/console-plugin.md: no redux store shared between watches, and no
// polling fallback when a WebSocket fails.
import { useEffect, useMemo, useState } from 'react';
import { apiJSON, apiWebSocket, GroupVersionKind, HttpError, modelFor } from './api';

type K8sResourceCommon = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } };

export type WatchK8sResource = {
  groupVersionKind?: GroupVersionKind;
  name?: string;
  namespace?: string;
  isList?: boolean;
};

type WatchState = { data: unknown; loaded: boolean; loadError: unknown };

type WatchEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: K8sResourceCommon & { code?: number; message?: string } };

// watch lists (or gets) a resource and then follows its changes with a
// Kubernetes watch, calling emit with the console's
// [data, loaded, loadError] state after each change; it returns its stop.
const watch = (resource: WatchK8sResource, emit: (s: WatchState) => void): (() => void) => {
  const abort = new AbortController();
  const { signal } = abort;
  const items = new Map<string, K8sResourceCommon>();
  const key = (o: K8sResourceCommon) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  const current = (): unknown => (resource.isList ? [...items.values()] : (items.values().next().value ?? {}));
  let loadError: unknown;

  const run = async () => {
    const model = await modelFor(resource.groupVersionKind!);
    const ns = model.namespaced && resource.namespace ? `/namespaces/${resource.namespace}` : '';
    const base = `${model.path}${ns}/${model.plural}`;
    const selector = resource.isList ? '' : `&fieldSelector=${encodeURIComponent(`metadata.name=${resource.name}`)}`;
    for (;;) {
      // The list: the state to follow from, as the console's watcher
      // lists before it watches (frontend/public/module/k8s/actions/k8s.ts).
      let resourceVersion: string;
      if (resource.isList) {
        const list = await apiJSON<{ items: K8sResourceCommon[]; metadata: { resourceVersion: string } }>(base, { signal });
        items.clear();
        list.items.forEach((o) => items.set(key(o), o));
        resourceVersion = list.metadata.resourceVersion;
        loadError = undefined;
      } else {
        try {
          const obj = await apiJSON<K8sResourceCommon>(`${base}/${resource.name}`, { signal });
          items.clear();
          items.set(key(obj), obj);
          resourceVersion = obj.metadata!.resourceVersion!;
          loadError = undefined;
        } catch (e) {
          // A named object that does not exist: loaded, with the 404 as
          // its error, as useK8sWatchResource gives it; its watch still
          // follows it from the list's version, so that it appears.
          if (!(e instanceof HttpError) || e.response.status !== 404) {
            throw e;
          }
          items.clear();
          loadError = e;
          const list = await apiJSON<{ metadata: { resourceVersion: string } }>(`${base}?${selector.slice(1)}`, { signal });
          resourceVersion = list.metadata.resourceVersion;
        }
      }
      emit({ data: current(), loaded: true, loadError });

      // The watch, over a WebSocket, one event per message, as the
      // console's k8s watcher opens it; when it closes (the API server
      // ends watches after a while, and says 410 Gone of a version too
      // old), the resource is listed again and watched from there.
      await new Promise<void>((resolve, reject) => {
        const ws = apiWebSocket(`${base}?watch=true&allowWatchBookmarks=true&resourceVersion=${resourceVersion}${selector}`);
        const stop = () => ws.close();
        signal.addEventListener('abort', stop);
        ws.onmessage = (m) => {
          const event = JSON.parse(m.data as string) as WatchEvent;
          if (event.type === 'ERROR') {
            ws.close();
            return;
          }
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          if (event.type === 'BOOKMARK') {
            return;
          }
          if (event.type === 'DELETED') {
            items.delete(key(event.object));
          } else {
            items.set(key(event.object), event.object);
            loadError = undefined;
          }
          emit({ data: current(), loaded: true, loadError });
        };
        ws.onclose = () => {
          signal.removeEventListener('abort', stop);
          if (signal.aborted) {
            reject(new Error('stopped'));
          } else {
            resolve();
          }
        };
      });
      // After a pause: a watch that keeps closing does not spin.
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  run().catch((e) => {
    if (!signal.aborted) {
      emit({ data: resource.isList ? [] : {}, loaded: true, loadError: e });
    }
  });
  return () => abort.abort();
};

// useK8sWatchResource: [data, loaded, loadError], data [] or {} until
// loaded, [undefined, true, undefined] for no resource
// (frontend/packages/console-dynamic-plugin-sdk/src/utils/k8s/hooks/useK8sWatchResource.ts).
export const useK8sWatchResource = <R,>(initResource: WatchK8sResource | null): [R, boolean, unknown] => {
  const serialized = JSON.stringify(initResource ?? null);
  const resource = useMemo(() => JSON.parse(serialized) as WatchK8sResource | null, [serialized]);
  const [state, setState] = useState<WatchState>({ data: resource?.isList ? [] : {}, loaded: false, loadError: undefined });
  useEffect(() => {
    if (!resource) {
      return undefined;
    }
    setState({ data: resource.isList ? [] : {}, loaded: false, loadError: undefined });
    return watch(resource, setState);
  }, [resource]);
  if (!resource) {
    return [undefined as R, true, undefined];
  }
  return [state.data as R, state.loaded, state.loadError];
};

// useK8sWatchResources: each key's { data, loaded, loadError }
// (useK8sWatchResources.ts beside useK8sWatchResource.ts). The keys are
// fixed for a component's life, as the console's overview passes them.
export const useK8sWatchResources = (resources: Record<string, WatchK8sResource>): Record<string, WatchState> => {
  const serialized = JSON.stringify(resources);
  const parsed = useMemo(() => JSON.parse(serialized) as Record<string, WatchK8sResource>, [serialized]);
  const [results, setResults] = useState<Record<string, WatchState>>(() =>
    Object.fromEntries(Object.entries(parsed).map(([k, r]) => [k, { data: r.isList ? [] : {}, loaded: false, loadError: undefined }])),
  );
  useEffect(() => {
    const stops = Object.entries(parsed).map(([k, r]) => watch(r, (s) => setResults((prev) => ({ ...prev, [k]: s }))));
    return () => stops.forEach((stop) => stop());
  }, [parsed]);
  return results;
};

type K8sModel = { apiGroup?: string; apiVersion: string; plural: string; namespaced?: boolean };

const resourceURL = (model: K8sModel, name?: string, namespace?: string) =>
  `${model.apiGroup ? `/apis/${model.apiGroup}` : '/api'}/${model.apiVersion}${model.namespaced && namespace ? `/namespaces/${namespace}` : ''}/${model.plural}${name ? `/${name}` : ''}`;

// k8sPatch, which the SDK exports as k8sPatchResource: options { model,
// resource, data }, a JSON patch sent with Content-Type
// application/json-patch+json, resolving to the patched object
// (frontend/packages/console-dynamic-plugin-sdk/src/api/core-api.ts,
// src/utils/k8s/k8s-resource.ts k8sPatch; the content type is
// frontend/packages/console-shared/src/utils/console-fetch.ts's for PATCH).
export const k8sPatchResource = async <R extends K8sResourceCommon>({ model, resource, data }: { model: K8sModel; resource: R; data: unknown[] }): Promise<R> => {
  const patches = data.filter((p) => p);
  if (patches.length === 0) {
    return resource;
  }
  return apiJSON<R>(resourceURL(model, resource.metadata?.name, resource.metadata?.namespace), {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: JSON.stringify(patches),
  });
};
export const k8sPatch = k8sPatchResource;

type AccessReviewResourceAttributes = { group?: string; resource?: string; subresource?: string; verb?: string; name?: string; namespace?: string };

const reviews = new Map<string, Promise<{ status: { allowed: boolean } }>>();

// checkAccess: a SelfSubjectAccessReview, memoized by its attributes
// (frontend/packages/console-dynamic-plugin-sdk/src/app/components/utils/rbac.tsx).
export const checkAccess = (a: AccessReviewResourceAttributes) => {
  const spec = { group: a.group ?? '', resource: a.resource ?? '', subresource: a.subresource ?? '', verb: a.verb ?? '', name: a.name ?? '', namespace: a.namespace ?? '' };
  const key = Object.values(spec).join('~');
  let review = reviews.get(key);
  if (!review) {
    review = apiJSON('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: spec } }),
    });
    reviews.set(key, review);
  }
  return review;
};

// useAccessReview: [isAllowed, loading]; a review that fails allows, as
// the console's does ("so that we don't incorrectly block users", rbac.tsx).
export const useAccessReview = (a: AccessReviewResourceAttributes): [boolean, boolean] => {
  const [loading, setLoading] = useState(true);
  const [allowed, setAllowed] = useState(false);
  const { group, resource, subresource, verb, name, namespace } = a;
  useEffect(() => {
    let live = true;
    checkAccess({ group, resource, subresource, verb, name, namespace })
      .then((r) => live && (setAllowed(r.status.allowed), setLoading(false)))
      .catch((e) => {
        console.warn('SelfSubjectAccessReview failed', e);
        if (live) {
          setAllowed(true);
          setLoading(false);
        }
      });
    return () => {
      live = false;
    };
  }, [group, resource, subresource, verb, name, namespace]);
  return [allowed, loading];
};

// HealthState, the values a health handler returns
// (frontend/packages/console-dynamic-plugin-sdk/src/extensions/console-types.ts).
export enum HealthState {
  OK = 'OK',
  ERROR = 'ERROR',
  WARNING = 'WARNING',
  LOADING = 'LOADING',
  UNKNOWN = 'UNKNOWN',
  UPDATING = 'UPDATING',
  PROGRESS = 'PROGRESS',
  UPGRADABLE = 'UPGRADABLE',
  NOT_AVAILABLE = 'NOT_AVAILABLE',
}

export { HttpError };
