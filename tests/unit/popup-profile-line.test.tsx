/**
 * Open profile questions in the popup: one quiet line under the balance while profile questions are open, linking
 * to the options page at the first open one; gone when all are answered, absent before the profile
 * was ever read, in English and German, from the popup view alone (no profile read, no request).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { popupViewItem, type ProfileSummary } from '../../utils/storage-items';
import { background } from './fake-background';
import { installI18n } from './i18n-setup';
import { getByRole, giftCard, mount, queryAllByRole, seed, unmount, waitFor } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const summary = (open: number, first: string | null = 'POSTAL_CODE'): ProfileSummary => ({
  open,
  total: 10,
  first,
  fetchedAt: Date.now(),
});
const line = (root: HTMLElement) =>
  root.querySelector<HTMLElement>('header .hdr-next:has(a[href^="options.html#answer"])');

async function showing(profile: ProfileSummary | null | undefined): Promise<HTMLElement> {
  await seed({ rewards: [giftCard(1, 'Amazon $5', 500)], balance: 2500 });
  await popupViewItem.setValue({ rewards: null, latest: null, ...(profile === undefined ? {} : { profile }) });
  const root = mount();
  await waitFor(() => expect(root.querySelector('.hdr-balance')?.textContent).toMatch(/^2.500 (points|Punkte)$/));
  return root;
}

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

describe('open profile questions in the popup', () => {
  it('says how many are open under the balance, with "Answer now" to the first of them', async () => {
    const root = await showing(summary(3));
    const answer = await waitFor(() => getByRole(root, 'link', 'Answer now'));
    expect(line(root)?.textContent).toBe('3 profile questions open · Answer now');
    expect(answer.getAttribute('href')).toBe('options.html#answer-POSTAL_CODE');
    expect(answer.getAttribute('target')).toBe('_blank');
    // Quiet: small, muted text in the header, after the balance, never a heading or bold.
    expect(line(root)?.classList.contains('small')).toBe(true);
    expect(line(root)?.classList.contains('muted')).toBe(true);
    expect(line(root)?.querySelector('strong, h1, h2, h3')).toBeNull();
    const header = root.querySelector('header')!;
    const parts = [...header.children];
    expect(parts.indexOf(line(root)!)).toBeGreaterThan(parts.indexOf(header.querySelector('.hdr-balance')!));
  });

  it('one question in the singular; a name of any shape stays one link target', async () => {
    const root = await showing(summary(1, 'Q 1/2'));
    await waitFor(() => expect(line(root)?.textContent).toBe('1 profile question open · Answer now'));
    expect(getByRole(root, 'link', 'Answer now').getAttribute('href')).toBe('options.html#answer-Q%201%2F2');
  });

  it('in German', async () => {
    installI18n('de');
    const root = await showing(summary(3));
    await waitFor(() => expect(line(root)?.textContent).toBe('3 Profilfragen offen · Jetzt beantworten'));
  });

  it.each([
    ['all answered', summary(0, null)],
    ['the profile never read', null],
    ['a view from before the count existed', undefined],
  ])('nothing when %s', async (_case, profile) => {
    const root = await showing(profile);
    await waitFor(() => getByRole(root, 'link', 'History'));
    expect(queryAllByRole(root, 'link', 'Answer now')).toHaveLength(0);
    expect(root.textContent).not.toMatch(/question/);
  });

  it('follows the view: gone once the last question is answered, back when the panel adds one', async () => {
    const root = await showing(summary(1));
    await waitFor(() => getByRole(root, 'link', 'Answer now'));
    await popupViewItem.setValue({ rewards: null, latest: null, profile: summary(0, null) });
    await waitFor(() => expect(queryAllByRole(root, 'link', 'Answer now')).toHaveLength(0));
    await popupViewItem.setValue({ rewards: null, latest: null, profile: summary(1, 'PETS') });
    await waitFor(() =>
      expect(getByRole(root, 'link', 'Answer now').getAttribute('href')).toBe('options.html#answer-PETS'),
    );
  });

  it('costs nothing on opening: no profile read from storage, no message to refresh it', async () => {
    const read: string[] = [];
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation((keys: unknown) => {
      read.push(...(Array.isArray(keys) ? keys : [keys]).map(String));
      return get(keys as string);
    });
    const root = await showing(summary(2));
    await waitFor(() => getByRole(root, 'link', 'Answer now'));
    expect(read).not.toContain('cache:profile');
    expect(read).not.toContain('questions:new');
    // The messaging module loads beside the first frame, so the refreshes may leave after the link shows.
    await waitFor(() =>
      expect(background.calls.map((c) => c.type).sort()).toEqual(['refreshHistory', 'refreshRewards']),
    );
  });
});
