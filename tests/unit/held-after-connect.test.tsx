/**
 * The options page's sections after a connect made in the page (components/options/held-after-connect.ts):
 * held back in the render that first says "Connected", shown once that render has been painted;
 * never held on a page opened connected, nor when the session goes or stays as it was.
 *
 * Deliberate breakages it was seen to fail on: holding on every render while connected (never
 * shown); holding in no render (the first test's first connected render shows them).
 */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useShownAfterConnecting } from '../../components/options/held-after-connect';
import { dropContainer, newContainer, nextFrame } from './options-fixtures';

let container: HTMLElement;
let renders: Array<{ usable: boolean; shown: boolean }>;

function Probe({ usable, known }: { usable: boolean; known: boolean }) {
  const shown = useShownAfterConnecting(usable, known);
  renders.push({ usable, shown });
  return <p>{shown ? 'sections' : 'held'}</p>;
}

beforeEach(() => {
  container = newContainer();
  renders = [];
});
afterEach(() => dropContainer(container));

describe('the sections after connecting in the page', () => {
  it('are held in the render that says "Connected", and shown a frame later', async () => {
    await act(() => render(<Probe usable={false} known={false} />, container));
    await act(() => render(<Probe usable={false} known />, container));
    // Outside act: effects run once the frame is painted, as in the browser.
    render(<Probe usable known />, container);
    expect(container.textContent).toBe('held');
    await nextFrame();
    expect(container.textContent).toBe('sections');
    const connected = renders.filter((r) => r.usable);
    expect(connected[0]).toEqual({ usable: true, shown: false });
    expect(connected.at(-1)).toEqual({ usable: true, shown: true });
  });

  it('are never held on a page opened connected, or while the session stays or goes', async () => {
    await act(() => render(<Probe usable={false} known={false} />, container));
    await act(() => render(<Probe usable known />, container));
    await act(() => render(<Probe usable known />, container));
    await act(() => render(<Probe usable={false} known />, container));
    expect(renders.every((r) => r.shown)).toBe(true);
  });
});
