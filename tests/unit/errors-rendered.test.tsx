/**
 * Whatever failure reaches a page — every kind of the closed
 * set, and the real errors the client makes of hostile responses — is shown as a message.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { errorText, plainMessage } from '../../components/options/error-text';
import { HistorySection } from '../../components/options/HistorySection';
import { createPanelApi } from '../../utils/api/client';
import { APP_ERROR_KINDS, AppErrorException, appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { historyItem } from '../../utils/storage-items';
import seed from '../sandbox/seed.json';
import { startSandbox, type FaultRule, type Sandbox } from '../sandbox/server';
import { button, click, dropContainer, mountInto, newContainer } from './options-fixtures';
import { found, giftCard, mount, seed as seedPopup, unmount, waitFor } from './popup-fixtures';

const answer = vi.hoisted(() => ({ error: null as AppError | null }));
vi.mock('../../utils/messages', () => ({
  sendMessage: async () => (answer.error ? { ok: false, error: answer.error } : { ok: true, data: null }),
}));

const HOSTILE: Array<[string, FaultRule]> = [
  ['malformed JSON', { status: 200, body: '{"message": "success", "rewards": [' }],
  [
    'a wrong shape',
    { status: 200, body: JSON.stringify({ message: 'success', rewards: [{ id: 'one', name: null }] }) },
  ],
  ['an empty body', { status: 200, body: '' }],
  ['HTML from a proxy', { status: 502, body: '<html><body>Bad gateway</body></html>' }],
  ['a 422 with a long message', { status: 422, body: JSON.stringify({ message: 'No. '.repeat(500) }) }],
  ['a 429', { status: 429, headers: { 'Retry-After': '3600' } }],
  ['a 429 asking for 30 s', { status: 429, headers: { 'Retry-After': '30' } }],
  ['a 401', { status: 401 }],
  ['a bare 403, no message', { status: 403, body: '' }],
  [
    "a 403 with the panel's message",
    { status: 403, body: JSON.stringify({ message: 'Rewards are closed for your country.' }) },
  ],
  [
    'a Laravel-style 422',
    {
      status: 422,
      body: JSON.stringify({ message: 'The given data was invalid.', errors: { FIRST_NAME: ['Too long.'] } }),
    },
  ],
  ['a dropped connection', { drop: true }],
];

let sandbox: Sandbox;
const generated: Array<[string, AppError]> = [];

beforeAll(async () => {
  // Passed in: the default seed is read through a file URL, which happy-dom's URL does not make.
  sandbox = await startSandbox({ seed: seed });
  const api = createPanelApi({ baseUrl: sandbox.url, token: sandbox.token, retries: 0, maxRetryAfterSeconds: 0 });
  for (const [label, rule] of HOSTILE) {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ ...rule, path: '/v1/panel/rewards' }),
    });
    const error = await api.listRewards().then(
      () => null,
      (e: unknown) => (e instanceof AppErrorException ? e.error : null),
    );
    if (!error) throw new Error(`${label}: the client did not turn it into a typed error`);
    generated.push([label, error]);
  }
});
afterAll(() => sandbox.close());
beforeEach(() => fakeBrowser.reset());
afterEach(() => {
  unmount();
  answer.error = null;
});

const EVERY_KIND = APP_ERROR_KINDS.map((kind): [string, AppError] => [
  kind,
  appError(kind, `A ${kind} failure happened.`),
]);
/** Failures the background makes with a code in their words: a renewal the sign-in server refused. */
const BACKGROUND = (): Array<[string, AppError]> => [
  ['a renewal refused', appError('rejected', t('errRenewFailed', 400), { status: 400, endpoint: 'token' })],
];
const cases = () => [...EVERY_KIND, ...generated, ...BACKGROUND()];

describe('the popup', () => {
  it('shows every failure in plain words beside the saved data', async () => {
    for (const [label, error] of cases()) {
      await seedPopup({ rewards: [giftCard(1, 'Amazon $5', 500)], balance: 2500, rewardsSync: { error } });
      const root = mount();
      const alert = await waitFor(() => found(root.querySelector('header [role=alert]'), `the alert for ${label}`));
      // With saved data on screen, a failure is one compact line in plain words, saying
      // which points are shown; an HTTP code only on the line for support under it.
      const line = alert.querySelector('p')!.textContent;
      // One wording however old the points: "— last updated just now" as "— last updated 2 minutes ago".
      expect(line, label).toMatch(/ — last updated .+ · Retry$/);
      expect(line, label).not.toMatch(/HTTP|\/v1\//);
      // The code only behind the closed "Details for support".
      expect(alert.textContent, label).not.toMatch(/HTTP \d/);
      if (error.status)
        expect(root.querySelector('header details.support .support-text')?.textContent, label).toContain(
          `HTTP ${error.status}`,
        );
      unmount();
    }
  });
});

describe('the options page', () => {
  it('shows every failure of a refresh in words', async () => {
    const container = newContainer();
    await historyItem.setValue({ data: [], fetchedAt: Date.now() });
    await mountInto(container, <HistorySection />);
    for (const [label, error] of cases()) {
      answer.error = error;
      await click(button(container, 'Refresh history'));
      const alert = found(container.querySelector('[role=alert]'), `the alert for ${label}`);
      // In the panelist's words: the panel by its name, no address, endpoint or HTTP status.
      expect(alert.textContent, label).toContain(plainMessage(error).slice(0, 80));
      expect(alert.textContent, label).not.toMatch(/HTTP \d|https?:\/\/|\/v1\/|\bexpected\b/);
      // The code where support finds it, as on the popup: behind the closed "Details for support".
      if (error.status)
        expect(container.querySelector('details.support .support-text')?.textContent, label).toContain(
          `HTTP ${error.status}`,
        );
    }
    await dropContainer(container);
  });
});

describe('a busy panel (429)', () => {
  it('the options page says the panel is busy and how long to wait, once: not “30 s” and then “30 seconds”', () => {
    const busy = generated.find(([label]) => label === 'a 429 asking for 30 s')![1];
    expect(busy).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 30 });
    expect(errorText(busy)).toBe('Panel Rewards is busy right now. Try again in 30 seconds.');
  });
});

describe('not allowed (403)', () => {
  it("the options page adds what to do to the panel's own message, once", () => {
    const own = generated.find(([label]) => label.startsWith('a 403'))![1];
    expect(own).toMatchObject({ kind: 'not_allowed', message: 'Rewards are closed for your country.' });
    expect(errorText(own)).toBe(
      'Rewards are closed for your country. If you think this should be allowed, contact your panel’s support.',
    );
    const fallback = errorText(
      appError(
        'not_allowed',
        'The panel does not allow this action for your account (HTTP 403). If you think this should be allowed, contact your panel’s support.',
      ),
    );
    expect(fallback.match(/contact your panel’s support/g)).toHaveLength(1);
  });
});
