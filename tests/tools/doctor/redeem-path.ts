/**
 * Whether a path reaches the redeem endpoint, as any server behind it might read the path. The
 * doctor never sends such a request unless a write check asked for exactly that redemption: a read
 * redirected there would spend the test panelist's points, with the key.
 *
 * A path is judged the way lenient servers and proxies normalise it, not as it is written:
 * percent-encoding decoded (repeatedly: a proxy may decode once and the server again), `%2F` and
 * `\` taken as slashes, `;parameters` dropped (Tomcat, Jetty), trailing dots and blanks dropped
 * (IIS), dot segments resolved, and case ignored (a case-insensitive server routes
 * `/V1/PANEL/REDEMPTION` to the redeem). It names the redeem when any segment is `redemption`:
 * the redeem endpoint's own last segment, which no read's path holds (theirs are `rewards`,
 * `redemptions`, `variables`, `meta`, `data`), so `/v1/panel/redemption/v1/panel/redemptions`
 * is refused as surely as `/v1/panel/redemption`.
 */

/** The redeem endpoint's last segment (utils/api/client.ts: `/v1/panel/redemption`). */
const REDEEM_SEGMENT = 'redemption';
/** Rounds of percent-decoding: enough for a path encoded at every hop a request takes. */
const DECODE_ROUNDS = 4;

function decodeOnce(text: string): string {
  // Each escape on its own, so one malformed escape does not leave the others encoded.
  return text.replace(/%[0-9a-f]{2}/gi, (escape) => {
    try {
      return decodeURIComponent(escape);
    } catch {
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    }
  });
}

/** The path's segments as a lenient server reads them: decoded, cleaned, dot segments resolved, lower case. */
export function normalisedSegments(pathname: string): string[] {
  let text = pathname;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const next = decodeOnce(text);
    if (next === text) break;
    text = next;
  }
  const out: string[] = [];
  for (const raw of text.replace(/\\/g, '/').split('/')) {
    const cleaned = raw
      .split(';')[0]!
      // oxlint-disable-next-line no-control-regex -- control characters are what a server drops
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .toLowerCase();
    // `.` and `..` are steps; any other trailing dots are dropped, as IIS does (`redemption.`).
    const segment = /^\.+$/.test(cleaned) ? cleaned : cleaned.replace(/[.\s]+$/, '');
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

/** Whether the path reaches the redeem endpoint under any reading (see above). */
export function reachesRedeem(pathname: string): boolean {
  return normalisedSegments(pathname).includes(REDEEM_SEGMENT);
}
