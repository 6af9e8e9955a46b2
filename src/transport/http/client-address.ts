import { BlockList, isIP } from 'node:net';

/**
 * Which peers may tell us the client's address in X-Forwarded-For. Only a proxy the operator runs can:
 * anyone else could claim a fresh address per request and reset the keyless per-IP allowance.
 */
export interface TrustedProxies {
  /** True when the socket peer is a proxy whose X-Forwarded-For is believed. */
  trusts(peer: string): boolean;
}

export const trustNoProxy: TrustedProxies = { trusts: () => false };
/** The deprecated IBANQA_TRUST_PROXY=true: every peer is believed (kept for existing deployments). */
export const trustEveryProxy: TrustedProxies = { trusts: () => true };

/** "10.0.0.1, 10.1.0.0/16, ::1" -> a BlockList of addresses and subnets; throws on anything else. */
export function parseTrustedProxies(setting: string): TrustedProxies {
  const list = new BlockList();
  const entries = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    const prefix = prefixText === undefined ? undefined : Number(prefixText);
    const prefixMax = family === 6 ? 128 : 32;
    const badPrefix =
      prefix !== undefined &&
      (!/^\d{1,3}$/.test(prefixText ?? '') || (prefix as number) > prefixMax);
    if (family === 0 || extra !== undefined || badPrefix) {
      throw new RangeError(
        `IBANQA_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR block`,
      );
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  if (entries.length === 0) return trustNoProxy;
  return {
    trusts: (peer) => isIP(peer) !== 0 && list.check(peer, isIP(peer) === 6 ? 'ipv6' : 'ipv4'),
  };
}

/**
 * The client address: the socket peer, unless the peer is a trusted proxy; then the nearest
 * X-Forwarded-For hop that is not itself a trusted proxy (hops are appended, so the right end is the
 * nearest). A hop that is not a bare IP address (a port, a name, garbage) ends the walk at the peer.
 */
export function clientAddress(peer: string, forwardedFor: string, proxies: TrustedProxies): string {
  if (forwardedFor === '' || !proxies.trusts(peer)) return peer;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = (hops[index] as string).trim();
    if (isIP(hop) === 0) return peer;
    if (!proxies.trusts(hop) || index === 0) return hop;
  }
  return peer;
}
