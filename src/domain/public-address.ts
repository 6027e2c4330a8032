// Which network addresses a webhook may reach. An endpoint is a stranger's URL that the service
// connects to from inside the operator's network, so only globally reachable unicast addresses
// are allowed (IANA's IPv4 and IPv6 special-purpose registries): no loopback, private, CGNAT,
// link-local, multicast, broadcast, documentation or unspecified ranges, and no IPv6 form that
// carries one of those IPv4 addresses inside it (mapped, compatible, NAT64, 6to4).
import { isIP } from 'node:net';

type V4 = readonly [number, number, number, number];

function parseV4(text: string): V4 | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^[0-9]{1,3}$/.test(p) ? Number(p) : NaN));
  if (bytes.some((b) => !(b >= 0 && b <= 255))) return null;
  const [a = 0, b = 0, c = 0, d = 0] = bytes;
  return [a, b, c, d];
}

/** Why an IPv4 address is not public, or null when it is. */
function v4Refusal([a, b, c]: V4): string | null {
  if (a === 0) return 'an unspecified ("this network") address';
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (CGNAT) address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 192 && b === 0 && c === 0) return 'an IETF protocol address';
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113))
    return 'a documentation address';
  if (a === 192 && b === 88 && c === 99) return 'a 6to4 relay address';
  if (a === 198 && (b === 18 || b === 19)) return 'a benchmarking address';
  if (a >= 224 && a <= 239) return 'a multicast address';
  if (a >= 240) return 'a reserved or broadcast address';
  return null;
}

/** The 8 16-bit groups of an IPv6 address (which isIP has accepted), with any dotted IPv4 tail. */
function parseV6(text: string): number[] | null {
  let head = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /^(.*:)([0-9.]+)$/.exec(head);
  if (dotted !== null && dotted[2]?.includes('.') === true) {
    const v4 = parseV4(dotted[2]);
    if (v4 === null) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    head = (dotted[1] ?? '').endsWith('::') ? (dotted[1] ?? '') : (dotted[1] ?? '').slice(0, -1);
  }
  const [left = '', right, extra] = head.split('::');
  if (extra !== undefined) return null;
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const missing = 8 - tail.length - l.length - r.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return null;
  const all = [...l, ...new Array<number>(missing).fill(0), ...r, ...tail];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

function v4Of(hi: number, lo: number): V4 {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
}

/** Why an IPv6 address is not public, or null when it is. */
function v6Refusal(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return 'an unspecified address';
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return 'a loopback address';
  const embedded = (v4: V4): string | null => {
    const why = v4Refusal(v4);
    return why === null ? null : `${why} (${v4.join('.')}) inside an IPv6 address`;
  };
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (the old "compatible" form), 64:ff9b::a.b.c.d (NAT64).
  if (upperZero && (g5 === 0xffff || g5 === 0))
    return embedded(v4Of(g6, g7)) ?? (g5 === 0 ? 'an IPv4-compatible address' : null);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(v4Of(g6, g7));
  if (g0 === 0x2002) return embedded(v4Of(g1, g2));
  // Everything else outside 2000::/3 (global unicast) is special: ULA fc00::/7, link-local
  // fe80::/10, multicast ff00::/8, discard 100::/64, local NAT64 64:ff9b:1::/48 and the rest.
  if ((g0 & 0xe000) !== 0x2000) {
    if ((g0 & 0xfe00) === 0xfc00) return 'a unique-local (private) address';
    if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address';
    if ((g0 & 0xff00) === 0xff00) return 'a multicast address';
    return 'a reserved address';
  }
  // Inside 2000::/3: IETF protocol assignments (Teredo and others) 2001::/23, documentation 2001:db8::/32 and 3fff::/20.
  if (g0 === 0x2001 && g1 < 0x200) return 'an IETF protocol address';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'a documentation address';
  if ((g0 & 0xfff0) === 0x3ff0) return 'a documentation address';
  return null;
}

/**
 * Why `address` (an IP literal, IPv6 with or without brackets) may not be reached by a webhook,
 * or null when it is a public unicast address. Anything that is not an IP literal is refused.
 */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const kind = isIP(bare);
  if (kind === 4) {
    const v4 = parseV4(bare);
    return v4 === null ? 'not an address' : v4Refusal(v4);
  }
  if (kind === 6) {
    const groups = parseV6(bare.replace(/%.*$/, ''));
    return groups === null ? 'not an address' : v6Refusal(groups);
  }
  return 'not an address';
}

/** Host names that name this machine or a local network whatever DNS says (RFC 6761, RFC 6762). */
export function localHostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.+$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h.endsWith('.home.arpa') ||
    h === ''
  );
}

/** Ports a webhook may use without the private-network switch: the web's own and unprivileged ones. */
export function allowedWebhookPort(port: number): boolean {
  return port === 80 || port === 443 || (port >= 1024 && port <= 65535);
}

/** Why a URL's host and port may not be used, when that is known without resolving it; else null. */
export function refusedUrl(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!allowedWebhookPort(port)) return `port ${port} is refused (only 80, 443 and 1024-65535)`;
  if (isIP(host) !== 0) {
    const why = nonPublicReason(host);
    return why === null ? null : `${host} is ${why}`;
  }
  if (localHostName(host)) return `${url.hostname} names a local host`;
  return null;
}
