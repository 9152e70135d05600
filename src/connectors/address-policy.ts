import ipaddr from 'ipaddr.js';

/**
 * Why an address is refused, or null when it is a public unicast address we may connect to.
 * Only globally routable unicast passes: loopback, RFC 1918, unique-local, link-local (which holds
 * the cloud metadata endpoints 169.254.169.254 and fd00:ec2::254 falls in unique-local), CGNAT,
 * multicast, unspecified, broadcast and reserved ranges are refused. IPv6 forms that carry an
 * IPv4 address (mapped, NAT64) are judged by the IPv4 address inside.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Reason(parsed as ipaddr.IPv4);
  return ipv6Reason(parsed as ipaddr.IPv6);
}

const rangeNames: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  uniqueLocal: 'a private network address (IPv6 unique-local)',
  reserved: 'a reserved address',
};

function describeRange(range: string): string {
  return rangeNames[range] ?? `a special-purpose address (${range})`;
}

function ipv4Reason(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : describeRange(range);
}

const NAT64_PREFIX = ipaddr.parseCIDR('64:ff9b::/96');
// Global unicast space; everything outside it (including deprecated IPv4-compatible ::a.b.c.d) is refused.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function ipv6Reason(address: ipaddr.IPv6): string | null {
  if (address.isIPv4MappedAddress()) return ipv4Reason(address.toIPv4Address());
  if (address.match(NAT64_PREFIX)) {
    const parts = address.parts;
    const embedded = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
    return ipv4Reason(embedded);
  }
  const range = address.range();
  if (range !== 'unicast') return describeRange(range);
  return address.match(GLOBAL_UNICAST) ? null : describeRange('reserved');
}

// Names that never lead to the public internet: RFC 6761 (localhost), RFC 6762 (local), RFC 8375
// (home.arpa), the ICANN private-use internal, and the loopback aliases of common /etc/hosts files.
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);
const PRIVATE_SUFFIXES = ['local', 'localdomain', 'internal', 'home.arpa', 'lan', 'intranet'];

/**
 * Why a host as a parsed URL gives it (`URL.hostname`: IPv4 already in dotted form, IPv6 in brackets)
 * is refused before any DNS lookup, or null when only its resolved addresses can tell. Addresses go
 * through refusedAddressReason; names are compared without case and without trailing dots, so
 * `LOCALHOST` and `localhost.` are the loopback name they spell.
 */
export function refusedHostReason(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return refusedAddressReason(host);
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === '') return 'not a host name';
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return 'a loopback address';
  if (!name.includes('.')) return 'a private network name (a single label, resolved on the local network)';
  if (PRIVATE_SUFFIXES.some((suffix) => name.endsWith(`.${suffix}`))) return 'a private network name';
  return null;
}
