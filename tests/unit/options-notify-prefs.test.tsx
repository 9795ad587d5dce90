import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PreferencesSection } from '../../components/options/PreferencesSection';
import { sendMessage } from '../../utils/messages';
import { preferencesItem, type Preferences } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as page.SendMock;
let container: HTMLElement;
let answer: boolean;
let request: ReturnType<typeof vi.fn>;
let remove: ReturnType<typeof vi.fn>;

const byLabel = <T extends HTMLElement>(text: string) => page.byLabel<T>(container, text);

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  answer = true;
  request = vi.fn(async () => answer);
  remove = vi.fn(async () => true);
  vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(request as never);
  vi.spyOn(fakeBrowser.permissions, 'remove').mockImplementation(remove as never);
  send.mockReset();
  send.mockImplementation(async (type, data) => {
    const next = { ...(await preferencesItem.getValue()), ...(data as Partial<Preferences>) };
    await preferencesItem.setValue(next);
    return { ok: true, data: next };
  });
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30 });
});
afterEach(async () => {
  await page.dropContainer(container);
  vi.restoreAllMocks();
});

describe('notification preferences', () => {
  it('are off until turned on; turning on asks for the permission, then offers each kind', async () => {
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    const notify = byLabel<HTMLInputElement>('Notify me of changes');
    expect(notify.checked).toBe(false);
    expect(container.querySelector('fieldset')).toBeNull();

    await page.click(notify);
    expect(request).toHaveBeenCalledWith({ permissions: ['notifications'] });
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notify: true });
    expect(notify.checked).toBe(true);
    const kinds = page.group(container, 'Notify me when');
    expect([...kinds.querySelectorAll('label')].map((l) => l.textContent)).toEqual([
      'a redemption changes state (completed, failed, refunded)',
      // Plain words, not "an unclear outcome is found, or not found".
      'we find out whether a redemption went through, when that was unclear',
      'you can redeem your goal',
      'the panel stops accepting your personal key',
      'your panel adds a profile question',
    ]);
    // New questions are told only to a panelist who asks for them.
    expect(byLabel<HTMLInputElement>('your panel adds a profile question').checked).toBe(false);
    expect(byLabel<HTMLInputElement>('you can redeem your goal').checked).toBe(true);

    await page.click(byLabel('you can redeem your goal'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notifyOff: ['goal'] });
    expect(byLabel<HTMLInputElement>('you can redeem your goal').checked).toBe(false);
    await page.click(byLabel('you can redeem your goal'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notifyOff: [] });

    await page.click(byLabel('your panel adds a profile question'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notifyOn: ['question'] });
    expect(byLabel<HTMLInputElement>('your panel adds a profile question').checked).toBe(true);
    await page.click(byLabel('your panel adds a profile question'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notifyOn: [] });
    expect(byLabel<HTMLInputElement>('your panel adds a profile question').checked).toBe(false);
  });

  it('in German, the outcome kind in plain words too', async () => {
    installI18n('de');
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    expect(container.querySelector('label[for="pref-notify-outcome"]')?.textContent).toBe(
      'feststeht, ob eine Einlösung geklappt hat, wenn das unklar war',
    );
  });

  it('stay off, with what to do, when the browser refuses the permission', async () => {
    answer = false;
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    const notify = byLabel<HTMLInputElement>('Notify me of changes');
    await page.click(notify);
    expect(notify.checked).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(container.querySelector('[role=alert]')?.textContent).toBe(
      'Notifications stay off: the browser did not allow them. Turn them on again and choose Allow.',
    );
  });

  it('turning off gives the permission back', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    await page.click(byLabel('Notify me of changes'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notify: false });
    expect(remove).toHaveBeenCalledWith({ permissions: ['notifications'] });
  });

  it('turning off that the background does not save keeps the permission: notifications stay on and need it', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    send.mockImplementation(async () => ({ ok: false, error: { kind: 'network', message: 'No answer' } }));
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    await page.click(byLabel('Notify me of changes'));
    expect(send).toHaveBeenLastCalledWith('setPreferences', { notify: false });
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBeTruthy(), {
      timeout: 10_000,
    });
    expect((await preferencesItem.getValue()).notify).toBe(true);
    expect(remove).not.toHaveBeenCalled();
  });

  it('the badge shows the balance, the points to the goal or the open profile questions, and nothing when turned off', async () => {
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    const shows = byLabel<HTMLSelectElement>('The badge shows');
    expect(shows.value).toBe('balance');
    expect([...shows.options].map((o) => o.textContent)).toEqual([
      'your points balance',
      'the points still needed for your goal',
      'how many profile questions are open',
    ]);
    for (const choice of ['goal', 'questions'] as const) {
      shows.value = choice;
      shows.dispatchEvent(new Event('change', { bubbles: true }));
      await page.settle();
      expect(send).toHaveBeenLastCalledWith('setPreferences', { badgeShows: choice });
    }
    await page.click(byLabel('Show points on the toolbar icon'));
    expect(byLabel<HTMLSelectElement>('The badge shows').disabled).toBe(true);
  });
});
