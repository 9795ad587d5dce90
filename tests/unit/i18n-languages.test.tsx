/**
 * The popup and the options page in each of their main states, in every language the extension
 * ships: every word comes from that language's own messages (none falls back to English, which
 * Chrome would do silently for a message a language lacks), no English message is left on the
 * page, and the controls are named in the language.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../components/options/OptionsApp';
import { DAY_MS } from '../../utils/balance-trend';
import { appError } from '../../utils/errors';
import {
  DISCONNECTED,
  accountOf,
  balanceHistoryItem,
  goalItem,
  historyItem,
  preferencesItem,
  profileItem,
  sessionItem,
  type LedgerEntry,
} from '../../utils/storage-items';
import { background } from './fake-background';
import { LANGUAGES, catalogue, en, langOf, substitutions } from './catalogues';
import { installI18n, missedMessages } from './i18n-setup';
import { EVERY_KIND_OF_QUESTION, dropContainer, mountInto, newContainer } from './options-fixtures';
import {
  CONNECTED,
  click,
  getByRole,
  giftCard,
  ledger,
  mount,
  redemption,
  seed,
  unmount,
  found,
  waitFor,
  wallet,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const REWARDS = [giftCard(1, 'Amazon $5', 500), giftCard(2, 'Target $50', 5000), wallet(3, 'PayWave $10', 1000)];
const DEFINITIONS = EVERY_KIND_OF_QUESTION;
const HISTORY = [
  redemption(1, REWARDS[0]!, '2024-10-21T11:05:19', { processed: true }),
  redemption(2, REWARDS[1]!, '2024-11-02T08:00:00', { failed: true, failed_reason: 'Out of stock' }),
  redemption(3, REWARDS[2]!, '2024-12-24T18:30:00', { partner_status: 'UNCLAIMED' }),
  redemption(4, REWARDS[0]!, '2024-12-25T09:00:00', { refunded: true }),
  redemption(5, REWARDS[0]!, '2024-12-26T09:00:00', { approved: true }),
  redemption(6, REWARDS[0]!, '2024-12-27T09:00:00'),
];
/** Data on the pages: the panel's and the rewards' own words, never a message. */
const DATA = [
  'Panel Rewards',
  ...REWARDS.map((r) => r.name),
  ...DEFINITIONS.flatMap((d) => [d.text, ...d.options.map((o) => o.text)]),
  'Out of stock',
];
const daysAgo = (days: number, points: number) => ({ at: Date.now() - days * DAY_MS, points });

/**
 * English messages (without substitutions, of four letters or more) that this language words
 * differently, found on the page outside the data: English that reached the page without going
 * through the language's messages (a component's own words).
 */
function englishLeftOvers(root: Element, locale: string): string[] {
  if (locale === 'en') return [];
  const own = catalogue(locale);
  const texts = [
    root.textContent ?? '',
    ...[...root.querySelectorAll('[aria-label],[title],[placeholder]')].flatMap((el) =>
      ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? ''),
    ),
  ];
  const page = texts.map((text) => DATA.reduce((rest, item) => rest.split(item).join(' '), text)).join('\n');
  return Object.entries(en)
    .filter(
      ([key, entry]) =>
        substitutions(entry.message).length === 0 &&
        /\p{L}{4}/u.test(entry.message) &&
        own[key]?.message !== entry.message,
    )
    .filter(([, entry]) =>
      new RegExp(`(^|[^\\p{L}])${entry.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(page),
    )
    .map(([key, entry]) => `${key}: ${entry.message}`);
}

/** The page is all in `locale`: nothing fell back to English, nothing English left over. */
function expectAllIn(root: Element, locale: string): void {
  expect({ missed: missedMessages(), english: englishLeftOvers(root, locale) }).toEqual({ missed: [], english: [] });
}

/** The message `key` of `locale` with its substitutions, as the page shows it. */
const say = (locale: string, key: string, ...subs: string[]) =>
  catalogue(locale)[key]!.message.replace(/\$([1-9])/g, (_, n: string) => subs[Number(n) - 1] ?? '');

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(() => {
  unmount();
  // An options test that failed half-way leaves no welcome hash for the next test.
  location.hash = '';
});

describe.each(LANGUAGES)('%s', (locale) => {
  describe('popup', () => {
    it('not connected, then the token refused', async () => {
      installI18n(locale);
      let root = mount();
      await waitFor(() => getByRole(root, 'button', say(locale, 'connect')));
      expectAllIn(root, locale);
      await seed({ rewards: REWARDS, balance: 2500 });
      await sessionItem.setValue({ ...CONNECTED, rejected: true });
      root = mount();
      await waitFor(() => getByRole(root, 'button', say(locale, 'reconnectButton')));
      expectAllIn(root, locale);
    });

    it('rewards affordable and not, a goal on its way, details open and the confirmation', async () => {
      installI18n(locale);
      const many = [
        ...REWARDS,
        ...Array.from({ length: 8 }, (_, i) => giftCard(20 + i, `Amazon $${i + 10}`, 1000 + 100 * i)),
      ];
      await seed({
        rewards: many,
        balance: 3770,
        // The history read, nothing refunded: the earning figure can be said.
        history: [],
        rewardsSync: { error: appError('network', 'x', { endpoint: '/v1/panel/rewards' }), attemptedAt: Date.now() },
      });
      await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: rid(2), rewardName: 'Target $50', setAt: 1 });
      await balanceHistoryItem.setValue([
        daysAgo(28, 2130),
        daysAgo(21, 2540),
        daysAgo(14, 2950),
        daysAgo(7, 3360),
        daysAgo(0.5, 3770),
      ]);
      const root = mount();
      const redeem = await waitFor(() => getByRole(root, 'button', say(locale, 'redeemReward', 'Amazon $5')));
      // The goal's region, named by its heading; the card names the reward, the row's toggle says it is the goal.
      await waitFor(() => getByRole(root, 'region', say(locale, 'goalHeading')));
      getByRole(root, 'button', say(locale, 'isGoal', 'Target $50'));
      await waitFor(() => expect(root.querySelector('.goal-pace')).not.toBeNull());
      // A brand's values, and behind "Sort and filter" the sort and the type filter.
      getByRole(root, 'combobox', say(locale, 'chooseValue', 'Amazon'));
      await click(getByRole(root, 'button', say(locale, 'sortAndFilter')));
      getByRole(root, 'combobox', say(locale, 'sortLabel'));
      getByRole(root, 'combobox', say(locale, 'typeLabel'));
      const open = getByRole(root, 'button', 'Amazon');
      await click(open);
      await waitFor(() => expect(open.getAttribute('aria-expanded')).toBe('true'));
      await click(redeem);
      const dialog = await waitFor(() => getByRole(document.body, 'alertdialog', say(locale, 'confirmTitle')));
      getByRole(dialog, 'button', say(locale, 'confirmRedeeming', 'Amazon $5'));
      expectAllIn(document.body, locale);
    });

    const OUTCOMES: Array<[string, Partial<LedgerEntry>]> = [
      ['pending', {}],
      [
        'done',
        { balanceAfter: 2000, redemption: redemption(9, REWARDS[0]!, '2024-12-28T09:00:00', { processed: true }) },
      ],
      ['failed', { error: { ...appError('rejected', 'Insufficient points'), nothingCharged: true } }],
      ['unknown', { checks: { done: 1, nextAt: Date.now() + 60_000, lastAt: Date.now() - 30_000 } }],
      ['not_found', {}],
    ];
    it.each(OUTCOMES)('a redemption %s', async (state, extra) => {
      installI18n(locale);
      await seed({ rewards: REWARDS, balance: 2500, ledger: ledger(state as LedgerEntry['state'], extra) });
      const root = mount();
      await waitFor(() => expect(root.querySelector('#redeem-outcome, .notice')).not.toBeNull());
      if (state === 'unknown') await waitFor(() => getByRole(root, 'button', say(locale, 'checkNowFor', 'Amazon $5')));
      expectAllIn(root, locale);
    });
  });

  describe('options page', () => {
    it('not connected, at the install’s welcome, with the form sent empty', async () => {
      installI18n(locale);
      await sessionItem.setValue(DISCONNECTED);
      location.hash = '#welcome';
      const root = newContainer();
      await mountInto(root, <OptionsApp />);
      await waitFor(() => expect(root.textContent).toContain(say(locale, 'connect')));
      // The form comes once the session is read.
      await click(await waitFor(() => found(root.querySelector<HTMLElement>('form button[type=submit]'), 'Connect')));
      await waitFor(() => expect(root.textContent).toContain(say(locale, 'enterAccessToken')));
      expect(root.textContent).toContain(say(locale, 'welcomeInstalled', 'Panel Rewards'));
      expectAllIn(root, locale);
      await dropContainer(root);
      location.hash = '';
    });

    it('connected: profile with an edit and an error, history in every state, balance, notifications on', async () => {
      installI18n(locale);
      await sessionItem.setValue(CONNECTED);
      await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
      await profileItem.setValue({
        data: {
          definitions: DEFINITIONS,
          values: { FIRST_NAME: 'Jordan', HOBBIES: [31], EMPLOYMENT: 41, COUNTRY: 'US' },
        },
        fetchedAt: Date.now(),
      });
      await historyItem.setValue({ data: HISTORY, fetchedAt: Date.now() });
      await balanceHistoryItem.setValue([daysAgo(20, 1000), daysAgo(2, 1500)]);
      const root = newContainer();
      await mountInto(root, <OptionsApp />);
      await waitFor(() => expect(root.querySelectorAll('.history-row')).toHaveLength(HISTORY.length));
      const name = await waitFor(() => found(root.querySelector<HTMLInputElement>('#var-1'), 'the first question'));
      name.value = 'x'.repeat(1001);
      name.dispatchEvent(new Event('input', { bubbles: true }));
      await waitFor(() =>
        expect(root.querySelector('.save-bar .count')?.textContent).toBe(
          say(locale, `unsavedChanges_${new Intl.PluralRules(langOf(locale)).select(1)}`, '1'),
        ),
      );
      await click(root.querySelector<HTMLElement>('.save-bar button[type=submit]')!);
      await waitFor(() => expect(root.querySelector('.field-error')).not.toBeNull());
      expect(root.textContent).toContain(say(locale, 'balanceHeading'));
      expectAllIn(root, locale);
      await dropContainer(root);
    });
  });
});
