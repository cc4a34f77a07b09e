import { useCallback, useEffect, useState } from 'react';
import { describeError, isMissingRoute } from './api-client';

/**
 * Runs a page's loader on mount and whenever it changes, and turns its
 * failures into page state: `missing` when the server lacks the route (an
 * older server), otherwise a readable `error`. `reload` runs it again after a
 * change; `setError` lets the page report its own failures in the same place.
 */
export function useAdminLoad(loader: () => Promise<void>) {
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      await loader();
    } catch (caught) {
      if (isMissingRoute(caught)) setMissing(true);
      else setError(describeError(caught));
    }
  }, [loader]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { missing, error, setError, reload };
}
