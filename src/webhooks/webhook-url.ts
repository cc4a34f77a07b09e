import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook must not reach by default: loopback, private, link-local, and other non-public ranges. */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateRanges.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return privateRanges.check(mapped[1], 'ipv4');
  return privateRanges.check(address, 'ipv6');
}

export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
}

/**
 * Checks an endpoint URL: http or https only, no credentials, and (unless
 * allowed) no host that is or resolves to a private address. Run when an
 * endpoint is saved and again before each delivery (DNS can change).
 */
export async function assertWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookUrlError('url must use http or https');
  if (url.username !== '' || url.password !== '') throw new WebhookUrlError('url must not carry credentials');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new WebhookUrlError(`url host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw new WebhookUrlError('url points to a private, loopback or link-local address (set PARLEY_WEBHOOKS_ALLOW_PRIVATE=true to allow)');
  }
  return url;
}
