/**
 * Word, within one process, that a save has committed writes to the change feed (db/migrations/0030_page_changes.ts),
 * so the publisher of this process starts at once instead of at its next poll. Only a hint: the feed itself is the
 * truth, and a publisher in another process (SERVER_PROCESSES, `npm run publish`) still finds the rows by polling.
 */
export interface FeedSignal {
  /** A save has committed. */
  committed(): void;
  /** Calls `listener` after each save; returns the function that stops it. */
  listen(listener: () => void): () => void;
}

export function createFeedSignal(): FeedSignal {
  const listeners = new Set<() => void>();
  return {
    committed() {
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
