import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../components/options/OptionsApp';
import { PreferencesSection } from '../../components/options/PreferencesSection';
import { sendMessage } from '../../utils/messages';
import { preferencesItem, type Preferences } from '../../utils/storage-items';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as page.SendMock;
let container: HTMLElement;

const byLabel = <T extends HTMLElement>(text: string) => page.byLabel<T>(container, text);
const { click, mountInto, settle } = page;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
  send.mockReset();
  send.mockImplementation(async (type, data) => {
    if (type !== 'setPreferences') return { ok: true, data: null };
    const next = { ...(await preferencesItem.getValue()), ...(data as Partial<Preferences>) };
    await preferencesItem.setValue(next);
    return { ok: true, data: next };
  });
});

afterEach(() => page.dropContainer(container));

describe('preferences', () => {
  it('shows the stored preferences and sends each change', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 60 });
    await mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    const badge = byLabel<HTMLInputElement>('Show points on the toolbar icon');
    const every = byLabel<HTMLSelectElement>('Refresh every');
    expect(badge.checked).toBe(true);
    expect(every.value).toBe('60');
    expect([...every.options].map((o) => o.value)).toEqual(['15', '30', '60', '180']);

    await click(badge);
    expect(send).toHaveBeenLastCalledWith('setPreferences', { badge: false });
    expect(badge.checked).toBe(false);

    await act(() => {
      every.value = '180';
      every.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    expect(send).toHaveBeenLastCalledWith('setPreferences', { refreshMinutes: 180 });
    expect(await preferencesItem.getValue()).toEqual({ badge: false, refreshMinutes: 180 });
    expect(container.querySelector('[role=status]')?.textContent).toBe('Your choice was saved.');
  });

  it('returns to the stored choice when the background refuses a change', async () => {
    send.mockResolvedValue({ ok: false, error: { kind: 'unexpected', message: 'Could not save preferences.' } });
    await mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    const badge = byLabel<HTMLInputElement>('Show points on the toolbar icon');
    await click(badge);
    expect(badge.checked).toBe(true);
    expect(container.querySelector('[role=alert]')?.textContent).toMatch(
      /Could not save preferences\. Your previous choice is kept/,
    );
  });
});

describe('options page', () => {
  it('offers only connecting and preferences until connected, with every control labelled', async () => {
    await mountInto(container, <OptionsApp />);
    expect([...container.querySelectorAll('h2')].map((h) => h.textContent)).toEqual([
      'Connection',
      'Toolbar and updates',
    ]);
    expect(send).not.toHaveBeenCalled();
    for (const control of container.querySelectorAll('input, select')) {
      expect(control.id && container.querySelector(`label[for="${control.id}"]`), control.outerHTML).toBeTruthy();
    }
  });
});
