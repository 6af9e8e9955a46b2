/**
 * CORS is off unless IBANQA_CORS_ORIGINS lists origins: the API is called by harnesses, not browsers, and
 * an API key in a browser page is a leaked key. When on, only the listed origins are echoed (never `*`,
 * because requests carry X-API-Key), and preflights answer for the API's own methods and headers.
 */
export interface CorsPolicy {
  /** The origin to echo, or undefined when this origin is not allowed (or CORS is off). */
  allowed(origin: string): string | undefined;
  readonly enabled: boolean;
}

export const corsOff: CorsPolicy = { enabled: false, allowed: () => undefined };

const originPattern = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** "https://a.example, http://localhost:3000" -> a policy; throws on anything that is not an origin. */
export function parseCorsOrigins(setting: string): CorsPolicy {
  const origins = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const origin of origins) {
    if (!originPattern.test(origin))
      throw new RangeError(
        `IBANQA_CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`,
      );
  }
  if (origins.length === 0) return corsOff;
  const set = new Set(origins);
  return { enabled: true, allowed: (origin) => (set.has(origin) ? origin : undefined) };
}

export const preflightHeaders = {
  'access-control-allow-methods': 'GET, POST, DELETE, HEAD',
  // Mcp-Protocol-Version: MCP clients send it on every request after the handshake (POST /mcp).
  'access-control-allow-headers': 'Content-Type, X-API-Key, X-Request-ID, Mcp-Protocol-Version',
  /** Ten minutes: browsers cap it anyway (Chromium at 2 hours). */
  'access-control-max-age': '600',
} as const;
