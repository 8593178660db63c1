// The UpdateRecords, through the SDK's useK8sWatchResource, as the tab
// watches the insights (useInsights.ts). A watch that failed keeps the
// data it last had: the history then shows the error and none of it, so
// that nothing stale reads as current.
import { useK8sWatchResource } from '@openshift-console/dynamic-plugin-sdk';
import { UpdateRecordGVK } from '../model/models';
import type { UpdateRecord } from '../model/types';

export type WatchedRecords = { records: UpdateRecord[]; loaded: boolean; error?: unknown };

export const useUpdateRecords = (): WatchedRecords => {
  const [data, loaded, error] = useK8sWatchResource<UpdateRecord[]>({ groupVersionKind: UpdateRecordGVK, isList: true });
  return error ? { records: [], loaded: true, error } : { records: data ?? [], loaded };
};
