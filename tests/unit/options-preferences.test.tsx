import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../components/options/OptionsApp';
import { PreferencesSection } from '../../components/options/PreferencesSection';
import { sendMessage, type Result } from '../../utils/messages';
import { preferencesItem, type Preferences } from '../../utils/storage-items';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as Mock<(type: string, data?: unknown) => Promise<Result<unknown>>>;
let container: HTMLElement;

async function flush() {
  for (let i = 0; i < 4; i++) await act(() => new Promise<void>((r) => setTimeout(r, 0)));
}

function byLabel<T extends HTMLElement>(text: string): T {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim() === text);
  const control = label && container.querySelector<T>(`#${CSS.escape(label.htmlFor)}`);
  if (!control) throw new Error(`no control labelled ${text}`);
  return control;
}

beforeEach(() => {
  fakeBrowser.reset();
  container = document.createElement('div');
  document.body.append(container);
  send.mockReset();
  send.mockImplementation(async (type, data) => {
    if (type !== 'setPreferences') return { ok: true, data: null };
    const next = { ...(await preferencesItem.getValue()), ...(data as Partial<Preferences>) };
    await preferencesItem.setValue(next);
    return { ok: true, data: next };
  });
});

afterEach(async () => {
  await act(() => render(null, container));
  container.remove();
});

describe('preferences', () => {
  it('shows the stored preferences and sends each change', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 60 });
    await act(() => render(<PreferencesSection />, container));
    await flush();
    const badge = byLabel<HTMLInputElement>('Show points on the toolbar icon');
    const every = byLabel<HTMLSelectElement>('Refresh every');
    expect(badge.checked).toBe(true);
    expect(every.value).toBe('60');
    expect([...every.options].map((o) => o.value)).toEqual(['15', '30', '60', '180']);

    await act(() => badge.click());
    await flush();
    expect(send).toHaveBeenLastCalledWith('setPreferences', { badge: false });
    expect(badge.checked).toBe(false);

    await act(() => {
      every.value = '180';
      every.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(send).toHaveBeenLastCalledWith('setPreferences', { refreshMinutes: 180 });
    expect(await preferencesItem.getValue()).toEqual({ badge: false, refreshMinutes: 180 });
    expect(container.querySelector('[role=status]')?.textContent).toBe('Preferences saved.');
  });

  it('returns to the stored choice when the background refuses a change', async () => {
    send.mockResolvedValue({ ok: false, error: { kind: 'unexpected', message: 'Could not save preferences.' } });
    await act(() => render(<PreferencesSection />, container));
    await flush();
    const badge = byLabel<HTMLInputElement>('Show points on the toolbar icon');
    await act(() => badge.click());
    await flush();
    expect(badge.checked).toBe(true);
    expect(container.querySelector('[role=alert]')?.textContent).toMatch(/Could not save preferences\. Your previous choice is kept/);
  });
});

describe('options page', () => {
  it('offers only connecting and preferences until connected, with every control labelled', async () => {
    await act(() => render(<OptionsApp />, container));
    await flush();
    expect([...container.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(['Connection', 'Preferences']);
    expect(send).not.toHaveBeenCalled();
    for (const control of container.querySelectorAll('input, select')) {
      expect(control.id && container.querySelector(`label[for="${control.id}"]`), control.outerHTML).toBeTruthy();
    }
  });
});
