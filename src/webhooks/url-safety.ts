import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be sent (server-side request forgery). Checked at registration and again
 * before every attempt, since DNS may change: the attempt then connects to the very addresses
 * checked here, never resolving the name a second time.
 */

const ranges = (list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const blocks = new BlockList();
  for (const [network, prefix, family] of list) blocks.addSubnet(network, prefix, family);
  return blocks;
};

/** Never a webhook target: link-local (cloud metadata lives there), unspecified, multicast, broadcast, metadata addresses. */
const ALWAYS_REFUSED = ranges([
  ['0.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
  ['ff00::', 8, 'ipv6'],
]);

/** The machine itself and private networks: refused unless WEBHOOK_ALLOW_PRIVATE=true. */
const PRIVATE = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
]);

export interface UrlPolicy {
  allowPrivate: boolean;
  /** how names are resolved (tests substitute one) */
  resolve?: (hostname: string) => Promise<string[]>;
}

export class UnsafeUrlError extends Error {}

const defaultResolve = async (hostname: string) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** `::ffff:10.0.0.1` is 10.0.0.1. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why an address may not be a target, or null when it may. */
export function refusalOf(address: string, allowPrivate: boolean): string | null {
  const { address: a, family } = normalise(address);
  if (ALWAYS_REFUSED.check(a, family)) return `${address} is a link-local, metadata, unspecified or multicast address`;
  if (!allowPrivate && PRIVATE.check(a, family)) return `${address} is a loopback or private address`;
  return null;
}

/** The URL's syntax: absolute http(s), no user name or password in it. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrlError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('url must use http or https');
  if (url.username || url.password) throw new UnsafeUrlError('url must not carry a user name or password');
  return url;
}

/** The addresses the URL's host stands for, every one of them allowed; else UnsafeUrlError saying why. */
export async function safeAddresses(url: URL, policy: UrlPolicy): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(host);
    } catch {
      throw new UnsafeUrlError(`url's host ${host} could not be resolved`);
    }
    if (!addresses.length) throw new UnsafeUrlError(`url's host ${host} could not be resolved`);
  }
  for (const address of addresses) {
    const refusal = refusalOf(address, policy.allowPrivate);
    if (refusal) throw new UnsafeUrlError(`url is not allowed: ${host === address ? '' : `${host} resolves to `}${refusal}`);
  }
  return addresses;
}
