/**
 * The popup's header and rows: History at hand, the next reward and "Earn more
 * points", a failed refresh as one line, brand tiles for missing images, and details that start
 * with the summary and end with Redeem.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { render } from 'preact';
import { readFileSync } from 'node:fs';
import { brandTile, TILE_TONES } from '../../components/popup/model/brand-tile';
import { HeaderView } from '../../components/popup/Header';
import { headerModel } from '../../components/popup/model/header-model';
import { nextReward } from '../../utils/next-reward';
import { appError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import { balanceHistoryItem, sessionItem, syncItem } from '../../utils/storage-items';
import { background } from './fake-background';
import { installI18n } from './i18n-setup';
import {
  click,
  found,
  getByRole,
  giftCard,
  IDLE,
  mount,
  queryAllByRole,
  seed,
  unmount,
  waitFor,
  wallet,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));

const amazon = giftCard(1, 'Amazon $5', 500);
const supportOf = (root: HTMLElement) =>
  root.querySelector<HTMLDetailsElement>('details.support') ??
  (() => {
    throw new Error('no “Details for support”');
  })();
const greenleaf = giftCard(2, 'Greenleaf €30', 3300);
const target = giftCard(3, 'Target $50', 5000);

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(() => {
  unmount();
  settings.earnUrl = '';
});

describe('header', () => {
  it('points kept after a failed refresh are said one way however old: “last updated just now” as “… 2 minutes ago”', () => {
    const now = Date.now();
    const stale = (age: number) =>
      headerModel({
        now,
        live: true,
        refreshable: true,
        balance: { points: 2500, source: 'rewards' },
        fetchedAt: now - age,
        error: appError('network', 'offline', { endpoint: '/v1/panel/rewards' }),
      }).fresh?.text;
    expect(stale(10_000)).toBe('Can’t reach Panel Rewards right now — last updated just now');
    expect(stale(120_000)).toBe('Can’t reach Panel Rewards right now — last updated 2 minutes ago');
  });

  it('a refresh over the points shown is said once: by its busy Refresh beside how old they are, not by “Updating…” too', async () => {
    await seed({ rewards: [greenleaf, target], balance: 2500, rewardsSync: { loading: true } });
    const root = mount();
    const refresh = await waitFor(() => getByRole(root, 'button', 'Refresh: your points and rewards'));
    // Busy once the sync state's own read is in.
    await waitFor(() => expect(refresh.getAttribute('aria-busy')).toBe('true'));
    expect(root.querySelector('.hdr-updated')?.textContent).toMatch(/^Updated /);
    expect(root.textContent).not.toContain('Updating…');
  });

  it('a refresh the panelist asked for that ends well is said politely, with the balance, outside the header', async () => {
    await seed({ rewards: [greenleaf, target], balance: 2500, rewardsSync: { attemptedAt: 1 } });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Refresh: your points and rewards')));
    await syncItem.setValue({
      rewards: { loading: true, error: null, attemptedAt: 1 },
      history: IDLE,
      profile: IDLE,
    });
    await syncItem.setValue({
      rewards: { loading: false, error: null, attemptedAt: 2 },
      history: IDLE,
      profile: IDLE,
    });
    const said = () => [...root.querySelectorAll('[role=status]')].map((el) => el.textContent);
    await waitFor(() => expect(said()).toContain('Updated just now. Your balance is now 2,500 points.'));
    const region = [...root.querySelectorAll('[role=status]')].find((el) => el.textContent?.startsWith('Updated'));
    expect(region?.closest('header')).toBeNull();
  });

  it('has History, a link to the options page at its history, next to Settings', async () => {
    await seed({ rewards: [amazon], balance: 2500 });
    const root = mount();
    const history = await waitFor(() => getByRole(root, 'link', 'History'));
    expect(history.closest('header')).not.toBeNull();
    expect(history.getAttribute('href')).toBe('options.html#history');
    expect(history.getAttribute('target')).toBe('_blank');
    expect(getByRole(root, 'button', 'Settings')).toBeTruthy();
  });

  it('not connected: no History (there is none yet), Settings still there', async () => {
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Connect'));
    expect(queryAllByRole(root, 'link', 'History')).toHaveLength(0);
    expect(getByRole(root, 'button', 'Settings')).toBeTruthy();
    expect(root.textContent).not.toContain('Settings shows you what to enter');
  });

  it('names the next reward not yet affordable under the balance', async () => {
    await seed({ rewards: [amazon, target, greenleaf], balance: 2500 });
    const root = mount();
    await waitFor(() => expect(root.querySelector('.hdr-next')?.textContent).toBe('800 points to Greenleaf €30'));
    expect(root.querySelector('.hdr-next')?.closest('header')).not.toBeNull();
  });

  it('names a reward of a brand with several values as its row does: the brand and the value, not the panel’s name', async () => {
    const cedar = (id: number, name: string, cost: number, currency: string, points: number) => {
      const card = giftCard(id, name, points);
      return { ...card, cost, cost_currency: currency, meta_data: { ...card.meta_data, brand_name: 'Cedar Bakery' } };
    };
    const rewards = [
      cedar(61, 'Cedar Bakery 5 USD Gift Card', 5, 'USD', 500),
      cedar(62, 'Cedar Bakery 25 EUR Gift Card', 25, 'EUR', 2750),
    ];
    await seed({ rewards, balance: 2500 });
    const root = mount();
    await waitFor(() => expect(root.querySelector('.hdr-next')?.textContent).toBe('250 points to Cedar Bakery €25.00'));
    // The row it names: the brand, with that value among its choices.
    const row = getByRole(root, 'button', 'Cedar Bakery').closest('li')!;
    expect([...row.querySelectorAll('option')].map((o) => o.textContent)).toContain('€25.00 · 2,750 points');
    unmount();
    installI18n('de');
    const german = mount();
    await waitFor(() =>
      expect(german.querySelector('.hdr-next')?.textContent).toBe('Noch 250 Punkte bis Cedar Bakery 25,00\u00a0€'),
    );
  });

  it('"Earn more points" links to the operator\'s page, also when nothing is affordable', async () => {
    settings.earnUrl = 'https://panel.example/surveys';
    await seed({ rewards: [greenleaf, target], balance: 100 });
    const root = mount();
    const earn = await waitFor(() => getByRole(root, 'link', 'Earn more points'));
    expect(earn.getAttribute('href')).toBe('https://panel.example/surveys');
    expect(earn.getAttribute('rel')).toBe('noopener noreferrer');
    expect(root.querySelector('.hdr-next')?.textContent).toBe('3,200 points to Greenleaf €30 · Earn more points');
  });

  it('without an earn page set at build time there is no such link; with every reward affordable, no next line', async () => {
    await seed({ rewards: [amazon], balance: 2500 });
    const root = mount();
    await waitFor(() => getByRole(root, 'heading', 'Amazon $5'));
    expect(queryAllByRole(root, 'link', 'Earn more points')).toHaveLength(0);
    expect(root.querySelector('.hdr-next')).toBeNull();
  });

  it('a refresh failure other than being offline: one amber line in plain words; the HTTP code and path only behind “Details for support”, no card', async () => {
    const error = appError('server', 'The panel had a problem (HTTP 503).', {
      status: 503,
      endpoint: '/v1/panel/rewards',
    });
    await seed({ rewards: [amazon], balance: 2500, rewardsSync: { error } });
    const root = mount();
    // Mounted without main.tsx's preload, the first render may have the failure before the cached
    // rewards: the card that stands in for them goes once they are read, the header's line stays.
    const alert = await waitFor(() => {
      expect(root.querySelector('.reward')).not.toBeNull();
      return getByRole(root, 'alert');
    });
    expect(alert.closest('header')).not.toBeNull();
    expect([...alert.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Panel Rewards has a problem right now — last updated 2 minutes ago · Retry',
    ]);
    expect(alert.textContent).not.toMatch(/HTTP|\/v1\/|For support/);
    // No line of the header carries the code: only the closed disclosure does.
    const support = supportOf(root);
    expect(support.open).toBe(false);
    expect(support.querySelector('summary')?.textContent).toBe('Details for support');
    expect(support.querySelector('.support-text')?.textContent).toBe('HTTP 503 /v1/panel/rewards');
    expect(support.closest('header')).not.toBeNull();
    expect(
      [...root.querySelectorAll('header p')].filter((p) => /HTTP/.test(p.textContent ?? '') && !p.closest('details')),
    ).toEqual([]);
    expect(root.querySelectorAll('.notice')).toHaveLength(0);
  });

  it('“Copy details” copies the lines for support, and says so', async () => {
    const writeText = vi.fn(async () => {});
    const had = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    try {
      const error = appError('server', 'x', { status: 500, endpoint: '/v1/panel/rewards' });
      await seed({ rewards: [amazon], balance: 2500, rewardsSync: { error } });
      const root = mount();
      const support = await waitFor(() => supportOf(root));
      await click(getByRole(support, 'button', 'Copy details'));
      expect(writeText).toHaveBeenCalledWith('HTTP 500 /v1/panel/rewards');
      await waitFor(() => expect(support.querySelector('[role=status]')?.textContent).toBe('Copied'));
    } finally {
      if (had) Object.defineProperty(navigator, 'clipboard', had);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    }
  });

  it('a busy panel: how long to wait is said in plain words; the code stays in the details (its Retry-After)', async () => {
    const error = appError('rate_limited', 'x', { status: 429, endpoint: '/v1/panel/rewards', retryAfterSeconds: 120 });
    await seed({ rewards: [amazon], balance: 2500, rewardsSync: { error } });
    const root = mount();
    const alert = await headerAlert(root);
    const [line, next] = [...alert.querySelectorAll('p')].map((p) => p.textContent);
    expect(line).toBe('Panel Rewards is busy right now — last updated 2 minutes ago · Retry');
    expect(next).toBe('Try again in 120 seconds.');
    expect(supportOf(root).querySelector('.support-text')?.textContent).toBe('HTTP 429 /v1/panel/rewards');
  });

  it('a panel that sent the refresh on to another site: plain words on the card, which site and what to check in the details', async () => {
    const message =
      'The panel at p.example sent the request on to another site (elsewhere.example), so its answer was not used.';
    const error = appError('unexpected', message, {
      status: 302,
      endpoint: '/v1/panel/rewards',
      redirect: { to: 'https://elsewhere.example/v1/panel/rewards' },
    });
    await seed({ rewards: [amazon], balance: 2500, rewardsSync: { error } });
    const root = mount();
    const alert = await headerAlert(root);
    expect([...alert.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Couldn’t get an update from Panel Rewards — last updated 2 minutes ago · Retry',
    ]);
    expect(supportOf(root).querySelector('.support-text')?.textContent).toBe(`${message}\nHTTP 302 /v1/panel/rewards`);
  });

  it('a rejected session shows the reconnect prompt with a header in the same layout', async () => {
    await seed({ rewards: [amazon], balance: 2500 });
    await sessionItem.setValue({
      connected: true,
      baseUrl: 'https://p',
      origin: 'https://p',
      tokenHint: 'x',
      rejected: true,
    });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Reconnect'));
    expect(root.querySelector('header.hdr')).not.toBeNull();
  });
});

describe('a balance not read beside the rewards', () => {
  const valuesFailed = appError('server', 'The panel had a problem (HTTP 503).', {
    status: 503,
    endpoint: '/v1/panel/variables/data',
  });

  it('says it could not be read and why, with Retry: never “Balance unknown” nor a number; the rewards stay redeemable', async () => {
    await seed({ rewards: [amazon], balance: 'unread', rewardsSync: { error: valuesFailed } });
    const root = mount();
    const alert = await waitFor(() => {
      expect(root.querySelector('.reward')).not.toBeNull();
      return getByRole(root, 'alert');
    });
    expect(alert.closest('header')).not.toBeNull();
    // How old the rewards shown are (seeded two minutes ago), as over any stale data.
    expect(alert.querySelector('p')?.textContent).toBe(
      'Panel Rewards has a problem right now — your balance could not be read; rewards last updated 2 minutes ago · Retry',
    );
    expect(root.querySelector('.hdr-balance')).toBeNull();
    expect(root.textContent).not.toMatch(/Balance unknown|\bpoints? to /);
    expect(supportOf(root).querySelector('.support-text')?.textContent).toBe('HTTP 503 /v1/panel/variables/data');
    // Unknown, not 0: the panel decides, so the reward is offered.
    expect(getByRole(root, 'button', 'Redeem Amazon $5').hasAttribute('disabled')).toBe(false);
  });

  it('the last balance seen stays in view, said to be the last known, with no next step counted from it', async () => {
    await seed({ rewards: [amazon, greenleaf], balance: 'unread', rewardsSync: { error: valuesFailed } });
    await balanceHistoryItem.setValue([{ at: Date.now() - 3_600_000, points: 900 }]);
    const root = mount();
    await waitFor(() => expect(root.querySelector('.reward')).not.toBeNull());
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('900 points');
    expect(root.querySelector('header')?.textContent).toContain('Your last known balance');
    expect(getByRole(root, 'alert').textContent).toContain('your balance could not be read');
    expect(root.querySelector('.hdr-next')).toBeNull();
  });

  it('without a failure stored (one read failed, the next not yet back): still said, with Retry', () => {
    const now = Date.now();
    const m = headerModel({ now, live: true, refreshable: true, rewards: [amazon], fetchedAt: now, unread: true });
    expect(m.fresh).toMatchObject({ text: 'Your balance could not be read', action: 'Retry', alert: false });
    expect(m.unknown).toBeNull();
    expect(m.points).toBeNull();
  });
});

describe('waiting for the first read (nothing cached)', () => {
  const lines = (m: ReturnType<typeof headerModel>) => {
    const box = document.createElement('div');
    render(<HeaderView m={m} />, box);
    // The balance's line holds the freshness beside it.
    return [...box.querySelector('header')!.children].map((el) =>
      el.className === 'hdr-line' ? `hdr-line: ${[...el.children].map((c) => c.className).join(', ')}` : el.className,
    );
  };

  it('keeps the lines the balance, the next step and the freshness then fill, so the page does not move down', () => {
    const now = Date.now();
    const waiting = headerModel({ now, live: true, refreshable: true });
    expect(waiting.waiting).toBe(true);
    const loaded = headerModel({
      now,
      live: true,
      refreshable: true,
      balance: { points: 2500, source: 'rewards' },
      rewards: [greenleaf],
      fetchedAt: now,
    });
    expect(loaded.waiting).toBe(false);
    // Line for line (the balance's place styled as tall as the balance: .hdr-wait), none of them a
    // balance to read before there is one.
    expect(lines(loaded)).toEqual([
      'hdr-row',
      'hdr-line: hdr-balance, muted hdr-updated joined-line',
      'hdr-next small joined-line',
    ]);
    expect(lines(waiting)).toEqual([
      'hdr-row',
      'hdr-line: hdr-wait, muted hdr-updated joined-line',
      'hdr-next small joined-line',
    ]);
  });

  it('the last balance seen says so in the next step’s place; a failure or a signed-out header keeps nothing', () => {
    const now = Date.now();
    const known = headerModel({
      now,
      live: true,
      refreshable: true,
      balance: { points: 900, source: 'rewards' },
      lastKnown: true,
    });
    const box = document.createElement('div');
    render(<HeaderView m={known} />, box);
    expect(box.querySelector('.hdr-next')?.textContent).toBe('Your last known balance');
    expect(headerModel({ now, live: true, refreshable: true, error: appError('network', 'x') }).waiting).toBe(false);
    expect(headerModel({ now }).waiting).toBe(false);
  });
});

describe('nextReward', () => {
  it('picks the smallest shortfall, ignores affordable and unknown costs', () => {
    const free = giftCard(9, 'Unknown cost', 0, { reward_point_cost: null });
    expect(nextReward([amazon, target, greenleaf, free], 2500)).toEqual({ reward: greenleaf, missing: 800 });
    expect(nextReward([amazon], 2500)).toBeNull();
    expect(nextReward([target], null)).toBeNull();
  });

  it('never names a reward whose cost is quarantined: the header points only at what is offered', () => {
    // Its points cost is a figure, but its money cost was no amount: never offered for redeeming.
    const refused = giftCard(8, 'Refused Gift', 2600, { costRefused: true });
    expect(nextReward([refused, target], 2500)).toEqual({ reward: target, missing: 2500 });
  });
});

describe('reward image fallback', () => {
  it('a reward without an image gets a tile with its brand initial and a colour of its own', async () => {
    const noImage = { ...wallet(4, 'PayWave $10', 1000), image_url: '', meta_data: {} };
    const other = { ...giftCard(5, 'Bluefin Coffee', 300), image_url: '', meta_data: { brand_name: 'Bluefin' } };
    await seed({ rewards: [noImage, other], balance: 2500 });
    const root = mount();
    await waitFor(() => expect(root.querySelectorAll('.reward-tile')).toHaveLength(2));
    const [a, b] = Array.from(root.querySelectorAll<HTMLElement>('.reward-tile'));
    expect(a!.textContent).toBe('B');
    expect(b!.textContent).toBe('P');
    expect(a!.getAttribute('aria-hidden')).toBe('true');
    const tone = (el: Element) => [...el.classList].find((c) => c.startsWith('tile-'));
    expect(tone(a!)).toMatch(/^tile-\d+$/);
    expect(tone(a!)).not.toBe(tone(b!));
  });

  it('a reward with an image has its tile under it from the start, never a grey square; the image shows once loaded', async () => {
    await seed({ rewards: [giftCard(2, 'Amazon $5', 500)], balance: 2500 });
    const root = mount();
    const tile = await waitFor(() => found(root.querySelector<HTMLElement>('.reward .reward-tile'), 'the reward tile'));
    expect(tile.textContent).toBe('A');
    const img = tile.querySelector('img')!;
    expect(img.classList.contains('reward-photo')).toBe(true);
    // Hidden over the tile until it has loaded, then shown: the page's rules, and the mark a load sets.
    const css = readFileSync('entrypoints/popup/style.css', 'utf8');
    expect(css).toMatch(/\.reward-photo \{[^}]*opacity: 0;/);
    expect(css).toMatch(/\.reward-photo\[data-loaded\] \{[^}]*opacity: 1;/);
    img.removeAttribute('data-loaded');
    img.dispatchEvent(new Event('load'));
    expect(img.hasAttribute('data-loaded')).toBe(true);
  });

  it('brandTile is stable per brand, and each of its tones is readable in white (4.5:1)', () => {
    const tile = brandTile(giftCard(1, 'écoute Music', 1));
    expect(tile.initial).toBe('É');
    expect(brandTile(giftCard(2, 'écoute Music', 1))).toEqual(tile);
    expect(tile.tone).toMatch(/^tile-\d+$/);
    const css = readFileSync('components/theme.css', 'utf8');
    const tones = [...css.matchAll(/\.tile-(\d+) \{\s*background: hsl\((\d+) 55% 30%\);/g)];
    expect(tones.map((m) => Number(m[1]))).toEqual(Array.from({ length: TILE_TONES }, (_, i) => i));
    for (const [, , hue] of tones) expect(contrastWithWhite(Number(hue)), `hue ${hue}`).toBeGreaterThanOrEqual(4.5);
  });
});

describe('details', () => {
  const full = giftCard(2, 'Visa Prepaid', 500, {
    meta_data: {
      reward_type: 'gift card',
      description: '<p>Spend it anywhere.</p>',
      terms: '<p>Terms apply.</p>',
      disclaimer: '<p>Not a bank.</p>',
      redemption_instructions: '<p>Enter the code.</p>',
    },
  });

  it('the row’s name opens the details; terms and disclaimer start collapsed; the row’s one Redeem comes after them', async () => {
    await seed({ rewards: [full], balance: 2000 });
    const root = mount();
    const toggle = await waitFor(() => getByRole(root, 'button', 'Visa Prepaid'));
    expect(toggle.closest('h3')).not.toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('true'));
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    await waitFor(() => expect(panel.querySelectorAll('details')).toHaveLength(2));
    const collapsed = Array.from(panel.querySelectorAll('details'));
    expect(collapsed.map((d) => d.querySelector('summary')?.textContent)).toEqual(['Terms', 'Disclaimer']);
    expect(collapsed.every((d) => !d.open)).toBe(true);
    // Summary first: the description comes before the legal text.
    const text = panel.textContent;
    expect(text.indexOf('Spend it anywhere.')).toBeLessThan(text.indexOf('Terms'));
    // One Redeem in the row, after the details.
    expect(queryAllByRole(root, 'button', 'Redeem Visa Prepaid')).toHaveLength(1);
    const redeem = getByRole(root, 'button', 'Redeem Visa Prepaid');
    expect(panel.compareDocumentPosition(redeem) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await click(redeem);
    await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption'));
  });

  it('a wallet with nothing more to show says so in one line', async () => {
    await seed({ rewards: [wallet(3, 'PayWave $10', 1000)], balance: 2000 });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'PayWave $10')));
    const panel = document.getElementById('reward-3-details')!;
    await waitFor(() => expect(panel.textContent).toContain('No further details.'));
    expect(panel.querySelectorAll('p')).toHaveLength(1);
  });
});

describe('in German (the same header, translated)', () => {
  it('one word for the settings page, the next reward, the offline line, and a no-break space before "…"', async () => {
    const { installI18n } = await import('./i18n-setup');
    installI18n('de');
    await seed({
      rewards: [amazon, greenleaf],
      balance: 2500,
      rewardsSync: { error: appError('network', 'x', { endpoint: '/v1/panel/rewards' }) },
      ledger: {
        requestId: 'r',
        rewardId: rid(1),
        rewardName: 'Amazon $5',
        points: 500,
        startedAt: Date.now(),
        state: 'pending',
      },
    });
    const root = mount();
    const history = await waitFor(() => getByRole(root, 'link', 'Verlauf'));
    expect(history.getAttribute('href')).toBe('options.html#history');
    expect(getByRole(root, 'button', 'Einstellungen')).toBeTruthy();
    // The link, the header's next step, the alert and the outcome come from separate reads: under
    // load one can paint a turn after another, so each is awaited on its own.
    await waitFor(() => expect(root.querySelector('.hdr-next')?.textContent).toBe('Noch 800 Punkte bis Greenleaf €30'));
    await waitFor(() =>
      expect(getByRole(root, 'alert').querySelector('p')?.textContent).toBe(
        'Panel Rewards ist gerade nicht erreichbar – zuletzt aktualisiert: vor 2 Minuten · Wiederholen',
      ),
    );
    // The raw text: accessible names fold a no-break space into a plain one.
    await waitFor(() =>
      expect(document.getElementById('redeem-outcome-title')?.textContent).toBe('Amazon $5 wird eingelöst\u00a0…'),
    );
  });

  it('a busy panel says how long to wait, in German and in its plural form', async () => {
    const { installI18n } = await import('./i18n-setup');
    installI18n('de');
    await seed({
      rewards: [amazon],
      balance: 2500,
      rewardsSync: { error: appError('rate_limited', 'x', { status: 429, retryAfterSeconds: 1 }) },
    });
    const root = mount();
    const next = (await headerAlert(root)).querySelectorAll('p')[1]!;
    expect(next.textContent).toBe('Versuchen Sie es in 1 Sekunde erneut.');
    // The code, for support, behind a closed disclosure in German words.
    const support = supportOf(root);
    expect(support.querySelector('summary')?.textContent).toBe('Details für den Support');
    expect(support.querySelector('.support-text')?.textContent).toBe('HTTP 429');
    expect(getByRole(support, 'button', 'Details kopieren')).toBeTruthy();
  });
});

/** WCAG contrast of white on hsl(`hue` 55% 30%). */
function contrastWithWhite(hue: number): number {
  const l = 0.3;
  const a = 0.55 * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
  return 1.05 / (lum + 0.05);
}

/**
 * The header's alert once the cached rewards are read: mounted without main.tsx's preload, the first
 * render may have the failure's card, which stands in for them until then.
 */
function headerAlert(root: HTMLElement): Promise<HTMLElement> {
  return waitFor(() => {
    expect(root.querySelector('.reward')).not.toBeNull();
    return getByRole(root, 'alert');
  });
}
