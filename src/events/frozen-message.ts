/**
 * Parses a bus payload once and deep-freezes it, so every local subscriber
 * can share one copy: a feed with many operators costs one parse per event,
 * not one per subscriber, and no handler can change what another one sees.
 */
export function parseFrozen(payload: string): unknown {
  return deepFreeze(JSON.parse(payload));
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
