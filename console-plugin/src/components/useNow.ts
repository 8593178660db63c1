// useNow is the clock the durations are measured with, ticking every
// interval so that SINCE and the estimates stay current between changes.
// A module of its own: the hosted clusters' tab and page use it without
// the cluster's own watches.
import { useEffect, useState } from 'react';

export const useNow = (intervalMs = 10000): Date => {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
};
