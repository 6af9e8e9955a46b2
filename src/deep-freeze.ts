/**
 * Freezes a plain JSON-like value and everything inside it. Frozen values are what the JSON renderer
 * may cache by identity (render/rows-json.ts), so a value shared between requests is frozen all the way
 * down: no later write can make a cached fragment stale.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
