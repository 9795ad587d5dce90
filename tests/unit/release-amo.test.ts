// @vitest-environment node
/**
 * The version's notes on addons.mozilla.org (AMO's v5 API), against a stand-in for AMO on
 * 127.0.0.1 that checks what the real one checks: a JWT signed with the key's secret (HS256, the
 * key's issuer, a one-time id, at most five minutes), the version looked up among all versions,
 * listed or not, and an edit of that version with each language's release notes in AMO's locale
 * codes and the reviewers' notes. What it records is what the release sent.
 *
 * Fails on these deliberate breakages: the look-up without `filter=all_with_unlisted` (a version
 * awaiting review is not listed, so the notes are not set); our locale directories sent as they
 * are (`en`, `pt_BR`: AMO does not know them); a language's English fallback sent as its notes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { amoLocale, sendVersionNotes, shownRequests, versionNotes } from '../tools/release/amo';
import type { WhatsNew } from '../tools/release/whats-new';

const ISSUER = 'user:12345:67';
const SECRET = 'made-up-secret-of-the-amo-key';
const GUID = 'rewards@acme-panel.example';

interface Received {
  method: string;
  url: string;
  auth: string;
  body: unknown;
}

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** AMO as far as these two calls go: the versions of one add-on, and the edit of one. */
async function fakeAmo(versions: { id: number; version: string }[], editStatus = 200) {
  const received: Received[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      received.push({
        method: req.method!,
        url: req.url!,
        auth: req.headers.authorization ?? '',
        body: text ? JSON.parse(text) : null,
      });
      const url = new URL(req.url!, 'http://amo');
      const base = `/api/v5/addons/addon/${encodeURIComponent(GUID)}/versions/`;
      res.setHeader('Content-Type', 'application/json');
      // Only versions awaiting review besides public ones are listed with this filter, as on AMO.
      if (req.method === 'GET' && url.pathname === base)
        return res.end(
          JSON.stringify({ results: url.searchParams.get('filter') === 'all_with_unlisted' ? versions : [] }),
        );
      const id = Number(url.pathname.slice(base.length).replace(/\/$/, ''));
      if (req.method === 'PATCH' && versions.some((v) => v.id === id)) {
        res.statusCode = editStatus;
        return res.end(
          editStatus === 200 ? JSON.stringify({ id }) : '{"detail":"Incorrect authentication credentials."}',
        );
      }
      res.statusCode = 404;
      res.end('{"detail":"Not found."}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { received, api: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v5/` };
}

const words: WhatsNew[] = [
  { locale: 'en', text: '• Save for a goal.', source: 'own' },
  { locale: 'de', text: '• Ein Sparziel.', source: 'own' },
  { locale: 'fr', text: '• Save for a goal.', source: 'english-fallback' },
  { locale: 'pt_BR', text: '• Uma meta.', source: 'own' },
  { locale: 'es', text: '• Una meta.', source: 'own' },
];
const notes = versionNotes(words, 'Build with Node 20 or later: npm ci && npx wxt build -b firefox');

describe('the notes addons.mozilla.org gets on a version', () => {
  it('are each language’s own notes under AMO’s locale codes, no fallback copied, and the reviewers’ notes', () => {
    expect(notes).toEqual({
      release_notes: {
        'en-US': '• Save for a goal.',
        de: '• Ein Sparziel.',
        'pt-BR': '• Uma meta.',
        'es-ES': '• Una meta.',
      },
      approval_notes: 'Build with Node 20 or later: npm ci && npx wxt build -b firefox',
    });
    expect(['ar', 'ja', 'nl', 'pl', 'it', 'fr'].map(amoLocale)).toEqual(['ar', 'ja', 'nl', 'pl', 'it', 'fr']);
  });

  it('are shown in a dry run as the requests that would leave', () => {
    const shown = shownRequests('{d3a1c4e0-0000-4000-8000-00000000abcd}', '0.2.0', notes);
    expect(shown).toContain(
      'GET https://addons.mozilla.org/api/v5/addons/addon/d3a1c4e0-0000-4000-8000-00000000abcd/versions/?filter=all_with_unlisted',
    );
    expect(shown).toContain(
      'PATCH https://addons.mozilla.org/api/v5/addons/addon/d3a1c4e0-0000-4000-8000-00000000abcd/versions/{id of 0.2.0}/',
    );
    expect(shown).toContain('Authorization: JWT {signed with FIREFOX_JWT_ISSUER and FIREFOX_JWT_SECRET}');
    expect(JSON.parse(shown.slice(shown.indexOf('\n{')))).toEqual(notes);
  });

  it('are set on the version wxt submit made, found among all versions, with a JWT AMO accepts', async () => {
    const amo = await fakeAmo([
      { id: 5502, version: '0.2.0' },
      { id: 5501, version: '0.1.0' },
    ]);
    const sent = await sendVersionNotes(GUID, '0.2.0', notes, { issuer: ISSUER, secret: SECRET }, amo.api);
    expect(sent).toEqual({ ok: true, versionId: 5502 });
    expect(amo.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /api/v5/addons/addon/${encodeURIComponent(GUID)}/versions/?filter=all_with_unlisted`,
      `PATCH /api/v5/addons/addon/${encodeURIComponent(GUID)}/versions/5502/`,
    ]);
    expect(amo.received[1]!.body).toEqual(notes);
    for (const { auth } of amo.received) {
      expect(auth).toMatch(/^JWT /);
      const { payload, protectedHeader } = await jwtVerify(auth.slice(4), new TextEncoder().encode(SECRET), {
        issuer: ISSUER,
      });
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
      expect(typeof payload.jti).toBe('string');
    }
    expect(amo.received[0]!.auth).not.toBe(amo.received[1]!.auth);
  });

  it('say why they were not set: a version AMO does not list, an edit AMO refuses', async () => {
    const missing = await fakeAmo([{ id: 5501, version: '0.1.0' }]);
    expect(await sendVersionNotes(GUID, '0.2.0', notes, { issuer: ISSUER, secret: SECRET }, missing.api)).toEqual({
      ok: false,
      reason: "the add-on's versions do not list 0.2.0",
    });
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const refused = await fakeAmo([{ id: 5502, version: '0.2.0' }], 401);
    expect(await sendVersionNotes(GUID, '0.2.0', notes, { issuer: ISSUER, secret: SECRET }, refused.api)).toEqual({
      ok: false,
      reason: 'the edit of version 0.2.0 answered 401: {"detail":"Incorrect authentication credentials."}',
    });
  });
});
