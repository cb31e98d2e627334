import { lookup as dnsLookup, type LookupAddress, promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { validationError } from '../infra/errors.js';

/**
 * SSRF rules for webhook URLs (DECISIONS.md, "Alerts and webhooks"): a URL whose host is, or resolves
 * to, a loopback, private, link-local, metadata or otherwise non-public address is refused when it is
 * saved, and again when a delivery connects, because DNS can answer differently between the two.
 */

const blocked = new BlockList();
// IPv4: "this network", private (RFC 1918), shared/CGNAT (RFC 6598), loopback, link-local (which holds
// the 169.254.169.254 cloud metadata service), IETF protocol assignments, documentation, benchmarking,
// multicast and reserved ranges.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
// IPv6: unspecified, loopback, unique local (fc00::/7, holds AWS fd00:ec2::254), link-local,
// site-local, multicast, documentation, and the discard prefix.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address carried inside an IPv6 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = parseInt(hex[1] as string, 16);
    const low = parseInt(hex[2] as string, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return undefined;
}

/** True when a webhook may not connect to this IP address. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const ipv4 = embeddedIpv4(bare);
    if (ipv4 !== undefined) return blocked.check(ipv4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  // Not an address at all: refuse rather than guess.
  return true;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(host: string, address: string) {
    super(`webhook host ${host} resolves to ${address}, a loopback, private, link-local or metadata address`);
    this.name = 'ForbiddenAddressError';
  }
}

/** The host of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * A `lookup` for http.request/https.request that refuses forbidden answers. The socket connects to the
 * address checked here, so a DNS answer cannot change between the check and the connection.
 */
export function safeLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate) {
        const bad = list.find((a) => isForbiddenAddress(a.address));
        if (bad) return callback(new ForbiddenAddressError(hostname, bad.address) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The save-time check: the URL must be http(s), carry no credentials, and its host must not be or
 * resolve to a forbidden address. Throws VALIDATION_ERROR naming `webhook-url`.
 */
export async function assertWebhookUrlAllowed(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('webhook-url', 'is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw validationError('webhook-url', 'must be http or https');
  if (url.username || url.password) throw validationError('webhook-url', 'must not carry a user name or password');
  if (allowPrivate) return;
  const host = urlHost(url);
  if (isIP(host)) {
    if (isForbiddenAddress(host))
      throw validationError('webhook-url', `${host} is a loopback, private, link-local or metadata address`);
    return;
  }
  let answers: LookupAddress[];
  try {
    answers = await dns.lookup(host, { all: true });
  } catch {
    throw validationError('webhook-url', `the host ${host} does not resolve`);
  }
  const bad = answers.find((a) => isForbiddenAddress(a.address));
  if (bad)
    throw validationError(
      'webhook-url',
      `${host} resolves to ${bad.address}, a loopback, private, link-local or metadata address`,
    );
}
