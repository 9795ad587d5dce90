/**
 * The pages as rendered, not as written: in a pseudo-locale that brackets every message, whatever
 * text is left outside brackets did not come from the catalogue; in German, the popup reads German.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../components/options/OptionsApp';
import { formatDateTime } from '../../utils/format';
import { DISCONNECTED, historyItem, profileItem, sessionItem } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import { EVERY_KIND_OF_QUESTION, dropContainer, mountInto, newContainer } from './options-fixtures';
import {
  CONNECTED,
  click,
  getByRole,
  giftCard,
  mount,
  redemption,
  seed,
  unmount,
  found,
  waitFor,
  wallet,
} from './popup-fixtures';
import { background } from './fake-background';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const REWARDS = [giftCard(1, 'Amazon $5', 500), giftCard(2, 'Target $50', 5000), wallet(3, 'PayWave $10', 1000)];
const unit = (unit: string, n: number) =>
  new Intl.NumberFormat('en-US', { style: 'unit', unit, unitDisplay: 'long' }).format(n);
/** Words that are data or `Intl` output (the refresh intervals, a country's name), not the extension's own. */
const DATA = [
  ...REWARDS.map((r) => r.name),
  'Panel Rewards',
  unit('minute', 15),
  unit('minute', 30),
  unit('hour', 1),
  unit('hour', 3),
  new Intl.DisplayNames('en-US', { type: 'region' }).of('US')!,
];

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(() => unmount());

const DEFINITIONS = EVERY_KIND_OF_QUESTION;
const HISTORY = [
  redemption(1, REWARDS[0]!, '2024-10-21T11:05:19', { processed: true }),
  redemption(2, REWARDS[1]!, '2024-11-02T08:00:00', { failed: true, failed_reason: 'Out of stock' }),
  redemption(3, REWARDS[2]!, '2024-12-24T18:30:00', { partner_status: 'IN_REVIEW' }),
];
DATA.push(
  ...DEFINITIONS.flatMap((d) => [d.text, d.name, ...d.options.map((o) => o.text)]),
  ...HISTORY.map((r) => formatDateTime(r.created_at)),
  'Jordan',
  'US',
  'Out of stock',
  'IN_REVIEW',
  // The provider's status in words (utils/humanise.ts): the panel's data, not a message.
  'In review',
  CONNECTED.origin,
);

/** The popup in `locale`, loaded with REWARDS and 2,500 points. */
async function popupWithRewards(locale: Parameters<typeof installI18n>[0]): Promise<HTMLElement> {
  installI18n(locale);
  await seed({ rewards: REWARDS, balance: 2500 });
  const root = mount();
  await waitFor(() => getByRole(root, 'heading', 'Amazon $5'));
  return root;
}

/** Page text and accessible-name attributes with every ⟦message⟧ and every piece of data removed. */
function unbracketed(root: Element): string[] {
  const texts = [root.textContent ?? ''];
  for (const el of root.querySelectorAll('*')) {
    for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = el.getAttribute(attr);
      if (value) texts.push(value);
    }
  }
  return texts
    .map((text) => {
      let rest = text;
      for (const item of DATA) rest = rest.split(item).join(' ');
      // Innermost first: "Updated ⟦just now⟧" sits inside its own brackets.
      for (let before = ''; before !== rest;) {
        before = rest;
        rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
      }
      return rest;
    })
    .filter((rest) => /\p{L}{2,}/u.test(rest));
}

describe('every word on the pages comes from the messages', () => {
  it('popup: loaded, with a reward short of points, details and the confirmation dialog open', async () => {
    const root = await popupWithRewards('pseudo');
    expect(root.textContent).toContain('⟦Redeem⟧');
    await click(root.querySelector<HTMLElement>('[aria-controls="reward-1-details"]')!);
    await click(root.querySelector<HTMLElement>('.reward .btn-primary:not([disabled])')!);
    await waitFor(() => found(document.querySelector('[role=alertdialog]'), 'the confirmation'));
    expect(unbracketed(document.body)).toEqual([]);
  });

  it('options page: not connected', async () => {
    installI18n('pseudo');
    await sessionItem.setValue(DISCONNECTED);
    const root = newContainer();
    await mountInto(root, <OptionsApp />);
    await waitFor(() => expect(root.textContent).toContain('⟦Connect⟧'));
    const form = root.querySelector('form')!;
    await click(form.querySelector<HTMLElement>('button[type=submit]')!);
    expect(unbracketed(root)).toEqual([]);
    await dropContainer(root);
  });
});

describe('every word on the options page, connected, comes from the messages', () => {
  it('profile with every kind of question, an edit, history with every kind of state', async () => {
    installI18n('pseudo');
    await sessionItem.setValue(CONNECTED);
    await profileItem.setValue({
      data: {
        definitions: DEFINITIONS,
        values: { FIRST_NAME: 'Jordan', HOBBIES: [31], EMPLOYMENT: 41, COUNTRY: 'US' },
      },
      fetchedAt: Date.now(),
    });
    await historyItem.setValue({ data: HISTORY, fetchedAt: Date.now() });
    const root = newContainer();
    await mountInto(root, <OptionsApp />);
    await waitFor(() => expect(root.querySelectorAll('.history-row')).toHaveLength(3));
    const name = await waitFor(() => found(root.querySelector<HTMLInputElement>('#var-1'), 'the first question'));
    name.value = 'x'.repeat(1001);
    name.dispatchEvent(new Event('input', { bubbles: true }));
    await waitFor(() => expect(root.textContent).toContain('1 unsaved change'));
    await click(root.querySelector<HTMLElement>('.save-bar button[type=submit]')!);
    await waitFor(() => expect(root.querySelector('.field-error')).not.toBeNull());
    expect(unbracketed(root)).toEqual([]);
    await dropContainer(root);
  });
});

describe('German', () => {
  it('the popup reads German, with German numbers', async () => {
    const root = await popupWithRewards('de');
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('2.500 Punkte');
    expect(root.textContent).toContain('Ihnen fehlen 2.500 Punkte');
    // Only what is missing: no "Genug Punkte" on affordable rows.
    expect(root.textContent).not.toContain('Genug Punkte');
    expect(root.textContent).toContain('Gutschein');
    expect(getByRole(root, 'button', 'Amazon $5 einlösen')).toBeTruthy();
    expect(getByRole(root, 'button', 'Aktualisieren: Ihre Punkte und Prämien')).toBeTruthy();
    await click(getByRole(root, 'button', 'Amazon $5 einlösen'));
    const dialog = await waitFor(() => getByRole(document.body, 'alertdialog', 'Einlösung bestätigen'));
    expect(dialog.textContent).toContain(
      'Amazon $5 für 500 Punkte einlösen? Ihr Punktestand beträgt danach 2.000 Punkte.',
    );
  });
});
