/** A machine name's words, lower case: "POSTAL_CODE" → postal, code; "firstName" → first, name. */
export function nameWords(raw: string): string[] {
  return raw
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.:\-/]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/**
 * A machine name in words a panelist can read: "POSTAL_CODE" → "Postal code", "IN_REVIEW" →
 * "In review", "firstName" → "First name". Used where the panel sent only its internal name;
 * the raw name stays available for support, out of the panelist's way.
 */
export function humanise(raw: string): string {
  const text = nameWords(raw).join(' ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : raw.trim();
}
