import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { DEFAULT_CHAT_WEBHOOK_HOSTS } from '../../config';
import { type ChatFormat } from '../../vocabulary';

/**
 * Where webhooks may be sent (server-side request forgery). Checked at registration and again
 * before every attempt, since DNS may change: the attempt then connects to the very addresses
 * checked here, never resolving the name a second time.
 */

type Family = 'ipv4' | 'ipv6';

/** One BlockList per family: node's BlockList matches an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, which ::/3 would catch. */
interface Ranges {
  check(address: string, family: Family): boolean;
}
const ranges = (list: [string, number, Family][]): Ranges => {
  const blocks = { ipv4: new BlockList(), ipv6: new BlockList() };
  for (const [network, prefix, family] of list) blocks[family].addSubnet(network, prefix, family);
  return { check: (address, family) => blocks[family].check(address, family) };
};

/** Never a webhook target: link-local (cloud metadata lives there), unspecified, multicast, broadcast, reserved, metadata addresses. */
const ALWAYS_REFUSED = ranges([
  ['0.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'], // reserved, and 255.255.255.255 broadcast
  ['::', 128, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
  ['ff00::', 8, 'ipv6'],
]);

/**
 * The machine itself, private networks and the rest of IANA's special-purpose address registries
 * (iana.org/assignments/iana-ipv4-special-registry and iana-ipv6-special-registry), whole, with
 * everything outside IPv6 global unicast (2000::/3): refused unless WEBHOOK_ALLOW_PRIVATE=true.
 * A block a few hosts answer on the internet (AS112, AMT) is refused too: no webhook lives there.
 */
const SPECIAL_PURPOSE = ranges([
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.31.196.0', 24, 'ipv4'], // AS112
  ['192.52.193.0', 24, 'ipv4'], // AMT
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'],
  ['192.175.48.0', 24, 'ipv4'], // AS112 direct delegation
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  // outside 2000::/3: ::1, ::ffff:0:0/96, ::/96, 64:ff9b::/96, 64:ff9b:1::/48, 100::/64, fc00::/7, fec0::/10…
  ['::', 3, 'ipv6'],
  ['4000::', 2, 'ipv6'],
  ['8000::', 1, 'ipv6'],
  ['2001::', 23, 'ipv6'], // IETF protocol assignments, Teredo 2001::/32 among them
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4
  ['3fff::', 20, 'ipv6'], // documentation
  ['5f00::', 16, 'ipv6'], // segment routing
]);

export interface UrlPolicy {
  allowPrivate: boolean;
  /** how names are resolved (tests substitute one) */
  resolve?: (hostname: string) => Promise<string[]>;
  /** this server's addresses (tests substitute some); by default every network interface's, read at each check since they change */
  ownAddresses?: () => string[];
  /** the hosts Slack and Teams endpoints may name (CHAT_WEBHOOK_HOSTS); by default Slack's and Microsoft's webhook hosts */
  chatHosts?: readonly string[];
}

export class UnsafeUrlError extends Error {
  constructor(
    message: string,
    /** WEBHOOK_ALLOW_PRIVATE=true would allow this address: a receiver on the operator's own machine or network */
    readonly allowedWithPrivate = false,
  ) {
    super(message);
  }
}

const defaultResolve = async (hostname: string) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
const interfaceAddresses = () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));

/** An IPv6 address's 16 bytes (no zone). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) text = `${text.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`;
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const words = tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill(0), ...groups(tail)];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const dottedQuad = (b: number[]) => b.join('.');
const allZero = (b: number[]) => b.every((x) => x === 0);
const isMapped = (b: number[]) => allZero(b.slice(0, 10)) && b[10] === 0xff && b[11] === 0xff;

/**
 * The IPv4 addresses an IPv6 address carries, which a gateway may forward to: mapped
 * (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::/96,
 * and 64:ff9b:1::/48 in its usual /96 place), 6to4 (2002:AABB:CCDD::) and Teredo (server, and
 * client with its bits inverted).
 */
export function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  const last = b.slice(12);
  const prefix = (bytes: number[]) => bytes.every((x, i) => b[i] === x);
  if (isMapped(b)) return [dottedQuad(last)];
  if (allZero(b.slice(0, 8)) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return [dottedQuad(last)];
  // ::/96, but not :: and ::1, which are IPv6's own unspecified and loopback addresses
  if (allZero(b.slice(0, 12)) && !allZero(b.slice(12, 15))) return [dottedQuad(last)];
  if (prefix([0, 0x64, 0xff, 0x9b]) && (allZero(b.slice(4, 12)) || (b[4] === 0 && b[5] === 1))) return [dottedQuad(last)];
  if (prefix([0x20, 0x02])) return [dottedQuad(b.slice(2, 6))];
  if (prefix([0x20, 0x01, 0, 0])) return [dottedQuad(b.slice(4, 8)), dottedQuad(last.map((x) => x ^ 0xff))];
  return [];
}

const ALWAYS = 'a link-local, metadata, unspecified, multicast or reserved address';
const SPECIAL = 'a loopback, private or special-purpose address';
const OWN = 'an address of this server';

/** Why an address may not be a target (what kind it is), or null when it may. */
export function refusalOf(address: string, policy: Pick<UrlPolicy, 'allowPrivate' | 'ownAddresses'>): string | null {
  // a zone (fe80::1%eth0) names an interface, not an address
  let bare = address.replace(/%.*$/, '');
  let family: Family = isIP(bare) === 6 ? 'ipv6' : 'ipv4';
  let carried = family === 'ipv6' ? embeddedIpv4(bare) : [];
  // a mapped address (::ffff:a.b.c.d) is the IPv4 address itself to the socket: judged as that alone
  if (family === 'ipv6' && isMapped(ipv6Bytes(bare))) [bare, family, carried] = [carried[0], 'ipv4', []];
  if (ALWAYS_REFUSED.check(bare, family) || carried.some((v4) => ALWAYS_REFUSED.check(v4, 'ipv4'))) return ALWAYS;
  if (policy.allowPrivate) return null;
  if (SPECIAL_PURPOSE.check(bare, family) || carried.some((v4) => SPECIAL_PURPOSE.check(v4, 'ipv4'))) return SPECIAL;
  const own = new BlockList();
  for (const mine of (policy.ownAddresses ?? interfaceAddresses)()) {
    const plain = mine.replace(/%.*$/, '');
    if (isIP(plain)) own.addAddress(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  }
  if (own.check(bare, family) || carried.some((v4) => own.check(v4, 'ipv4'))) return OWN;
  return null;
}

/** The URL's syntax: absolute http(s), no user name or password in it, a port that can be connected to. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrlError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrlError('url must use http or https');
  if (url.username || url.password) throw new UnsafeUrlError('url must not carry a user name or password');
  // port 0 is no port a connection can reach: the attempt would fail forever, or the system pick a port for it
  if (url.port === '0') throw new UnsafeUrlError("url's port must be from 1 to 65535, not 0");
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
    const refusal = refusalOf(address, policy);
    // the same words at registration and at delivery, where they are the attempt's error: never a connection's outcome, which would tell whether a port is open
    if (refusal) throw new UnsafeUrlError(`address not allowed: ${host === address ? `${host} is` : `${host} resolves to ${address},`} ${refusal}`, refusal !== ALWAYS);
  }
  return addresses;
}

/** Whether a host is on the list: an entry is a name, or `*.` and a name that matches any name ending in `.` and it (one label or more, as Logic Apps' regional hosts have). */
export function hostOnList(host: string, list: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return list.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry));
}

const LOOPBACK = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const isLoopback = (address: string) => {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) === 4) return LOOPBACK.check(bare, 'ipv4');
  const carried = embeddedIpv4(bare);
  return isMapped(ipv6Bytes(bare)) ? LOOPBACK.check(carried[0], 'ipv4') : LOOPBACK.check(bare, 'ipv6');
};
/** A name that stands for this machine by its form alone: a loopback address, `localhost` (RFC 6761). */
const namesLoopback = (host: string) => (isIP(host) ? isLoopback(host) : host === 'localhost' || host.endsWith('.localhost'));

const FORMAT_NAMES: Record<ChatFormat, string> = { slack: 'Slack', teams: 'Teams' };

/**
 * A Slack or Teams endpoint's URL, beyond what every webhook's must be (`safeAddresses`): https, and
 * a host on CHAT_WEBHOOK_HOSTS, since a chat message is unsigned and goes where the service's own
 * words may be posted. With WEBHOOK_ALLOW_PRIVATE=true a receiver on this machine (a loopback
 * address, http or https) is allowed whatever its host, so a first try can use a local receiver.
 * Checked at registration and again before every attempt, as the rest is.
 */
export async function safeChatAddresses(url: URL, format: ChatFormat, policy: UrlPolicy): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const name = FORMAT_NAMES[format];
  if (namesLoopback(host)) {
    if (!policy.allowPrivate) {
      throw new UnsafeUrlError(`url must be the ${name} webhook URL ${name} gave you (https, on one of its hosts); ${host} is this machine`, true);
    }
    const addresses = await safeAddresses(url, policy);
    if (addresses.every(isLoopback)) return addresses;
    throw new UnsafeUrlError(`url's host ${host} resolves to ${addresses.find((a) => !isLoopback(a))}, not a loopback address: a ${name} endpoint on this machine must be reached at a loopback address`);
  }
  if (url.protocol !== 'https:') {
    throw new UnsafeUrlError(`a ${name} webhook URL must use https: use the https URL ${name} gave you (plain http is allowed only to a loopback address, with WEBHOOK_ALLOW_PRIVATE=true)`);
  }
  const hosts = policy.chatHosts ?? DEFAULT_CHAT_WEBHOOK_HOSTS;
  if (!hostOnList(host, hosts)) {
    throw new UnsafeUrlError(
      `url's host ${host} is not a chat webhook host this service posts ${name} messages to (${hosts.join(', ')}): use the URL ${name} gave you, or ask the operator to add its host to CHAT_WEBHOOK_HOSTS`,
    );
  }
  return safeAddresses(url, policy);
}
