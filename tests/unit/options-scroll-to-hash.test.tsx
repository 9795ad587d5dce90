import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScrollToHash } from '../../components/options/scroll-to-hash';
import * as page from './options-fixtures';

function Page({ ready }: { ready: boolean }) {
  useScrollToHash(ready);
  return ready ? <h2 id="connection-heading">Connection</h2> : null;
}

let container: HTMLElement;
afterEach(() => page.dropContainer(container));

describe('a link to a section of the options page (a notification’s click)', () => {
  it('lands on the section once it is rendered, with focus, and only once', async () => {
    history.replaceState(null, '', '/options.html#connection');
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    container = page.newContainer();
    await page.mountInto(container, <Page ready={false} />);
    expect(scrolled).not.toHaveBeenCalled();
    await page.mountInto(container, <Page ready />);
    const heading = container.querySelector('#connection-heading');
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(heading);
    await page.mountInto(container, <Page ready />);
    expect(scrolled).toHaveBeenCalledTimes(1);
    // The address keeps saying where the panelist is.
    expect(location.hash).toBe('#connection');
  });
});
