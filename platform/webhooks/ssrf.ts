import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../core/errors.ts';

/**
 * Where a webhook may not be sent: the machine itself, private networks and every other
 * non-public range, IPv4 and IPv6 (an IPv4-mapped IPv6 address is checked as its IPv4).
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
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
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function asIPv4(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : null;
}

/** Why `address` may not be a webhook target, or null when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const v4 = asIPv4(address);
  const ip = v4 ?? address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (allowLoopback && LOOPBACK.check(ip, family)) return null;
  if (BLOCKED.check(ip, family)) return `${address} is a private, loopback, link-local or reserved address`;
  return null;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks a webhook URL: https:// only, no credentials, and a host whose every address (the
 * hostname resolved, IPv4 and IPv6) is public. Returns the checked addresses; refuses with 400.
 */
export async function checkWebhookUrl(
  raw: string,
  options: { allowLoopback: boolean; resolve?: Resolver },
): Promise<{ url: URL; addresses: { address: string; family: number }[] }> {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url) throw new AppError('BAD_REQUEST', 'url must be an absolute https:// URL.');
  if (url.protocol !== 'https:') throw new AppError('BAD_REQUEST', 'url must start with https://.');
  if (url.username || url.password) throw new AppError('BAD_REQUEST', 'url must not carry a user name or password.');
  if (raw.length > 2_000) throw new AppError('BAD_REQUEST', 'url must be at most 2000 characters.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw new AppError('BAD_REQUEST', `url: the host ${host} does not resolve.`);
    }
  }
  if (addresses.length === 0) throw new AppError('BAD_REQUEST', `url: the host ${host} does not resolve.`);
  for (const { address } of addresses) {
    const why = refusedAddress(address, options.allowLoopback);
    if (why) throw new AppError('BAD_REQUEST', `url: ${host} is refused: ${why}.`);
  }
  return { url, addresses };
}
