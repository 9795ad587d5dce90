/**
 * The version's notes on addons.mozilla.org, through AMO's v5 API: `release_notes` (what panelists
 * read, in each language the operator wrote notes in) and `approval_notes` (for Mozilla's
 * reviewers: how to rebuild the add-on from the sources zip). `wxt submit` creates the version and
 * sends neither, so once it has, the release looks the new version up among the add-on's versions
 * (`filter=all_with_unlisted`: a version awaiting review is not public yet) and edits it with
 * `PATCH /api/v5/addons/addon/<guid>/versions/<id>/`, signed as every AMO API call is: a JWT
 * (HS256) made of FIREFOX_JWT_ISSUER and FIREFOX_JWT_SECRET, good for a minute.
 *
 * A dry run prints this request as it would leave; `--submit` sends it, from CI too.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { WhatsNew } from './whats-new';

export const AMO_API = 'https://addons.mozilla.org/api/v5/';
/** The body of the version's edit, as the release wrote it into .output/release/. */
export const AMO_NOTES_FILE = 'amo-version-notes.json';

/**
 * AMO's locale codes for the extension's locale directories: English is en-US, AMO's default;
 * Spanish is es-ES since AMO split `es` into regional variants (2025); a region is written with a dash.
 */
const AMO_LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES' };
export const amoLocale = (locale: string): string => AMO_LOCALES[locale] ?? locale.replace('_', '-');

export interface VersionNotes {
  /** By AMO locale: each language with notes of its own (AMO shows the English where a language has none). */
  release_notes: Record<string, string>;
  approval_notes: string;
}

export const versionNotes = (words: WhatsNew[], approvalNotes: string): VersionNotes => ({
  release_notes: Object.fromEntries(words.filter((w) => w.source === 'own').map((w) => [amoLocale(w.locale), w.text])),
  approval_notes: approvalNotes,
});

/** The add-on in an API path: its id without the braces of a {GUID} (as publish-browser-extension sends it), escaped. */
const addonPath = (guid: string) => encodeURIComponent(guid.replace(/^\{(.*)\}$/, '$1'));

/** The two requests, as they leave: the look-up of the version `wxt submit` made, and the edit of its notes. */
export function notesRequests(guid: string, notes: VersionNotes, api = AMO_API) {
  const versions = new URL(`addons/addon/${addonPath(guid)}/versions/`, api);
  return {
    lookupUrl: `${versions.href}?filter=all_with_unlisted`,
    edit: (id: number | string) => ({
      method: 'PATCH' as const,
      url: `${versions.href}${id}/`,
      body: notes,
    }),
  };
}

/** The request a dry run prints: the look-up, then the edit with its headers and body, the id still to learn. */
export function shownRequests(guid: string, version: string, notes: VersionNotes): string {
  const { lookupUrl, edit } = notesRequests(guid, notes);
  const request = edit(`{id of ${version}}`);
  return [
    `GET ${lookupUrl}   (the id of ${version}, once wxt submit has made it)`,
    `${request.method} ${request.url}`,
    'Authorization: JWT {signed with FIREFOX_JWT_ISSUER and FIREFOX_JWT_SECRET}',
    'Content-Type: application/json',
    '',
    JSON.stringify(request.body, null, 2),
  ].join('\n');
}

/** A JWT as AMO's API takes it: HS256, the key's issuer, a one-time id, issued now, good for 60 s. */
async function amoJwt(issuer: string, secret: string): Promise<string> {
  return new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(new TextEncoder().encode(secret));
}

export interface Credentials {
  issuer: string;
  secret: string;
}

type Sent = { ok: true; versionId: number | string } | { ok: false; reason: string };

async function call(url: string, method: string, credentials: Credentials, body?: unknown): Promise<Response> {
  return fetch(url, {
    method,
    headers: {
      Authorization: `JWT ${await amoJwt(credentials.issuer, credentials.secret)}`,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** What an answer that is not 2xx said, in a few words. */
async function refusal(response: Response, what: string): Promise<string> {
  const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim();
  return `${what} answered ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}`;
}

/** Looks the version up and edits its notes; says why not, when not. */
export async function sendVersionNotes(
  guid: string,
  version: string,
  notes: VersionNotes,
  credentials: Credentials,
  api = AMO_API,
): Promise<Sent> {
  const { lookupUrl, edit } = notesRequests(guid, notes, api);
  try {
    const listed = await call(lookupUrl, 'GET', credentials);
    if (!listed.ok) return { ok: false, reason: await refusal(listed, 'the version list') };
    const page = (await listed.json()) as { results?: { id: number; version: string }[] };
    const made = page.results?.find((v) => v.version === version);
    if (!made) return { ok: false, reason: `the add-on's versions do not list ${version}` };
    const request = edit(made.id);
    const edited = await call(request.url, request.method, credentials, request.body);
    if (!edited.ok) return { ok: false, reason: await refusal(edited, `the edit of version ${version}`) };
    return { ok: true, versionId: made.id };
  } catch (error) {
    return { ok: false, reason: `no answer (${(error as Error).message})` };
  }
}
