import ipaddr from 'ipaddr.js';

/**
 * Hosts, judged in one canonical form: the one owner of "is this host a public one, or private,
 * loopback, link-local or otherwise not one the open internet serves". Reward images, the panel's
 * address, the sign-in endpoints, host access and the doctor all ask here; none reads a hostname
 * on its own.
 *
 * The canonical form starts with what the WHATWG URL parser already does to a special URL's host,
 * as browsers do: lower case, percent-escapes and full-width characters decoded, IDNA to punycode
 * (`bücher.example` → `xn--bcher-kva.example`), every IPv4 spelling to dotted decimal (`2130706433`,
 * `0x7f.1`, `0177.0.0.1`, `127.1` → `127.0.0.1`, with one trailing dot), IPv6 compressed
 * (`[0:0::1]` → `[::1]`, `[::ffff:127.0.0.1]` → `[::ffff:7f00:1]`), and a zone id refused
 * altogether. What it keeps, this adds:
 *
 * - **trailing dots are removed**: the parser keeps `localhost.` and `router.localhost.`, which a
 *   browser resolves exactly as `localhost` (Chromium sends them to 127.0.0.1), and keeps
 *   `127.0.0.1..` as a name; without its dots that is the address again, so the result is parsed
 *   once more;
 * - **an IPv4-mapped IPv6 address is judged as its IPv4 address** (`[::ffff:7f00:1]` is loopback);
 * - a bare host, not a URL, is read the same way (an IPv6 one with a zone id by ipaddr.js: the zone
 *   names an interface of this machine, the address is what is judged).
 *
 * Only a host the public internet routes to is `public`: a global unicast address (ipaddr.js's
 * `unicast` range; for IPv6 also inside 2000::/3, the only block IANA allocates to it), or a name
 * of two labels or more outside the special-use names (`localhost` and everything under it,
 * `local` for mDNS, `home.arpa`, `internal`, `localdomain`). A single label (`router`, `intranet`) is
 * completed by the local network's search domains, so it is not public either. A public name
 * that resolves to a private address (DNS rebinding, `127.0.0.1.nip.io`) cannot be told by its name:
 * that is the browser's own private-network protection's to refuse.
 */

export type HostKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'special';

export interface Host {
  /** The canonical form: as the URL parser writes the host, without trailing dots (IPv6 in brackets). */
  name: string;
  kind: HostKind;
}

/** Names that never leave this machine or its network, by their last labels (RFC 6761, 6762, 8375; ICANN's `internal`). */
const LOOPBACK_NAMES = ['localhost'];
const PRIVATE_NAMES = ['local', 'home.arpa', 'internal', 'localdomain'];

/**
 * The two names plain http is spoken to: this machine, as the manifest's optional host permissions
 * name it (`http://localhost/*`, `http://127.0.0.1/*`). Any other spelling of them is canonicalised
 * to one of these first.
 */
export const PLAIN_HTTP_HOSTS: readonly string[] = ['localhost', '127.0.0.1'];

/** The host of `input` (a URL, or a bare host name or address) in its canonical form, judged; null when it has none. */
export function hostOf(input: string | URL): Host | null {
  const parsed = hostname(input);
  if (parsed === null) return null;
  let name = parsed;
  // Twice at most: without its trailing dots a name may read as an address (`0x7f.1..`).
  for (let pass = 0; pass < 2 && name.endsWith('.'); pass++) {
    const bare = name.replace(/\.+$/, '');
    if (bare === '') return null;
    name = reparsed(bare) ?? bare;
  }
  return { name, kind: kindOf(name) };
}

/** Whether `input`'s host is one the open internet serves (see the module's comment). */
export function isPublicHost(input: string | URL): boolean {
  return hostOf(input)?.kind === 'public';
}

/**
 * Whether plain `http:` may be spoken to `url`: only to this machine, by the names the manifest can
 * grant (`localhost`, `127.0.0.1`, however spelled: `LOCALHOST.`, `0x7f.1`, `2130706433`).
 */
export function plainHttpAllowed(url: string | URL): boolean {
  const parsed = asUrl(url);
  if (!parsed || parsed.protocol !== 'http:') return false;
  const host = hostOf(parsed);
  return host !== null && PLAIN_HTTP_HOSTS.includes(host.name);
}

/** `url`'s origin with its host in the canonical form (`https://panel.example.:8443` → `https://panel.example:8443`); null for none. */
export function canonicalOrigin(url: string | URL): string | null {
  const parsed = asUrl(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return null;
  const host = hostOf(parsed);
  if (!host) return null;
  return `${parsed.protocol}//${host.name}${parsed.port ? `:${parsed.port}` : ''}`;
}

function asUrl(url: string | URL): URL | null {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The parser's hostname of a URL (a string with a scheme), or of a bare host; null when it has none. */
function hostname(input: string | URL): string | null {
  if (input instanceof URL) return input.hostname || null;
  // A bare host never holds `/`; anything with a scheme's `//` is read as a URL, whatever its scheme.
  if (input.includes('/')) return asUrl(input)?.hostname || null;
  return bareHost(input.trim());
}

/** A bare host (`Example.COM.`, `::1`, `[fe80::1]`, `fe80::1%eth0`) as the parser writes it. */
function bareHost(text: string): string | null {
  const inner = text.replace(/^\[(.*)\]$/, '$1');
  if (inner.includes(':')) {
    // A zone id (`%eth0`) is refused by the URL parser; the address itself is what is judged.
    const address = inner.replace(/%.*$/, '');
    return ipaddr.IPv6.isValid(address) ? `[${ipaddr.IPv6.parse(address).toString()}]` : null;
  }
  return reparsed(text);
}

function reparsed(name: string): string | null {
  try {
    const url = new URL(`https://${name}/`);
    return url.hostname || null;
  } catch {
    return null;
  }
}

function kindOf(name: string): HostKind {
  if (name.startsWith('[')) {
    const inner = name.slice(1, -1);
    if (!ipaddr.IPv6.isValid(inner)) return 'special';
    const address = ipaddr.IPv6.parse(inner);
    if (address.isIPv4MappedAddress()) return ipv4Kind(address.toIPv4Address());
    const range = address.range();
    if (range === 'unicast') return address.match(ipaddr.IPv6.parse('2000::'), 3) ? 'public' : 'special';
    return RANGES[range] ?? 'special';
  }
  if (FOUR_PART_DECIMAL.test(name) && ipaddr.IPv4.isValid(name)) return ipv4Kind(ipaddr.IPv4.parse(name));
  const labels = name.split('.');
  const endsWith = (suffix: string) => name === suffix || name.endsWith(`.${suffix}`);
  if (LOOPBACK_NAMES.some(endsWith)) return 'loopback';
  if (PRIVATE_NAMES.some(endsWith)) return 'private';
  return labels.length >= 2 && labels.every((label) => label !== '') ? 'public' : 'special';
}

/**
 * An IPv4 address as the URL parser writes one: four decimal parts. Tested before ipaddr.js is asked
 * (its isValidFourPartDecimal tests this after isValid, which throws and catches for every name
 * that is no address: about 40 µs a name, 7 s for the image addresses of 5,000 rewards).
 */
const FOUR_PART_DECIMAL = /^(0|[1-9]\d*)(\.(0|[1-9]\d*)){3}$/;

/** ipaddr.js's ranges as kinds; any range not named here (multicast, reserved, documentation, 6to4…) is `special`. */
const RANGES: Readonly<Record<string, HostKind>> = Object.assign(Object.create(null) as Record<string, HostKind>, {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
});

function ipv4Kind(address: ipaddr.IPv4): HostKind {
  return RANGES[address.range()] ?? 'special';
}
