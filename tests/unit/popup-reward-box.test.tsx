/**
 * Reward HTML in happy-dom: its images are held back until the panelist
 * asks for a host, images from hosts the page does not allow give way to their alt text, headings
 * sit below the details' own, and the page's image policy is in place before any of it is shown.
 * DOMPurify itself cannot run here (popup-sanitize.test.tsx); Chromium runs the real thing
 * (tests/e2e/reward-html.test.ts).
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { hideWhenBroken, prepareRewardHtml, showHeldImages } from '../../components/popup/details/reward-box';
import { RewardDetails } from '../../components/popup/details/RewardDetails';
import { splitHtml } from '../../utils/reward-html';
import { rewardHtmlItem, sessionItem } from '../../utils/storage-items';
import { click, CONNECTED, getByRole, giftCard, waitFor } from './popup-fixtures';
import { inert, inHtmlBoxes } from './sanitize-stub';
import { installI18n } from './i18n-setup';

vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));
// The box's own stylesheet, which the test build leaves empty: what it sets is tested here too.
vi.mock('../../components/popup/details/reward-box.css?inline', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  return { default: readFileSync(join(__dirname, '../../components/popup/details/reward-box.css'), 'utf8') };
});

const ALLOWED = new Set(['https://img.example', 'https://panel.example']);

describe('prepareRewardHtml', () => {
  it('holds back images from allowed hosts, leaves only the alt text of others, keeps data: images', () => {
    const { content, held } = prepareRewardHtml(
      inert(
        '<p><img src="https://img.example/a.png" alt="Brand logo" width="40" height="20">' +
          '<img src="https://tracker.example/p.gif?panelist=42" alt="pixel">' +
          '<img src="https://panel.example/x.png">' +
          '<img src="https://img.example/b.png" alt="second">' +
          '<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"></p>',
      ),
      ALLOWED,
    );
    expect(held).toEqual(['https://img.example', 'https://panel.example']);
    const imgs = [...content.querySelectorAll('img')];
    expect(imgs.map((i) => i.getAttribute('src'))).toEqual(['data:image/png;base64,iVBORw0KGgo=']);
    const placeholders = [...content.querySelectorAll('span.held')];
    expect(placeholders.map((p) => p.textContent)).toEqual(['Brand logo', '', 'second']);
    expect(placeholders[1]?.getAttribute('aria-hidden')).toBe('true');
    expect(content.textContent).toContain('pixel');
    expect(content.querySelector('[src*="tracker"]')).toBeNull();
  });

  it('puts headings below the details’ own', () => {
    const { content } = prepareRewardHtml(inert('<h1>Big <b>claim</b></h1><h3>Sub</h3><h6>Small</h6>'), ALLOWED);
    expect([...content.children].map((e) => `${e.tagName} ${e.innerHTML}`)).toEqual([
      'H5 Big <b>claim</b>',
      'H5 Sub',
      'H6 Small',
    ]);
  });
});

describe('showing held images', () => {
  it('shows only the asked-for host’s images, with their alt and size, and a broken one leaves no icon', () => {
    const { content } = prepareRewardHtml(
      inert(
        '<img src="https://img.example/a.png" alt="Logo" width="40"><img src="https://panel.example/p.png" alt="Panel">',
      ),
      ALLOWED,
    );
    const box = document.createElement('div');
    box.append(content);
    showHeldImages(box, new Set(['https://img.example']));
    const img = box.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://img.example/a.png');
    expect(img.getAttribute('alt')).toBe('Logo');
    expect(img.getAttribute('width')).toBe('40');
    expect(box.querySelectorAll('span.held')).toHaveLength(1);

    img.dispatchEvent(new Event('error'));
    expect(box.querySelector('img')).toBeNull();
    expect(box.textContent).toBe('LogoPanel');
  });

  it('a data: image that fails to decode gives way to its alt text', () => {
    const img = document.createElement('img');
    img.alt = 'inline';
    const box = document.createElement('p');
    box.append(img);
    hideWhenBroken(img);
    img.dispatchEvent(new Event('error'));
    expect(box.innerHTML).toBe('inline');
  });
});

describe('the details view', () => {
  let container: HTMLElement;
  beforeEach(() => {
    fakeBrowser.reset();
    container = document.body.appendChild(document.createElement('div'));
  });
  afterEach(() => {
    render(null, container);
    container.remove();
  });

  it('sets the image policy before any reward HTML, then loads a host’s images only when asked', async () => {
    const reward = giftCard(3, 'Bluefin Coffee', 500, {});
    reward.meta_data = {
      ...reward.meta_data,
      description:
        '<h1>Coffee</h1><p><img src="https://img.example/cup.png" alt="A cup"> <img src="https://tracker.example/t.gif" alt="">Fresh.</p>',
      terms: '<p><img src="https://img.example/fine.png" alt="Fine print"></p>',
    };
    const { rewards, html } = splitHtml([
      reward,
      giftCard(4, 'Other', 100, { image_url: 'https://cdn.other.example/4.png' }),
    ]);
    await sessionItem.setValue(CONNECTED);
    await rewardHtmlItem.setValue(html);
    const seenPolicyFirst: boolean[] = [];
    const observer = new MutationObserver(() => {
      const boxes = [...container.querySelectorAll('.html')];
      if (boxes.some((b) => b.shadowRoot?.childNodes.length))
        seenPolicyFirst.push(!!document.querySelector('meta[http-equiv="Content-Security-Policy"]'));
    });
    observer.observe(container, { subtree: true, childList: true });

    render(<RewardDetails reward={rewards[0]!} redeem={null} />, container);
    const show = await waitFor(() => getByRole(container, 'button', 'Show images from img.example'));
    observer.disconnect();
    expect(seenPolicyFirst.length).toBeGreaterThan(0);
    expect(seenPolicyFirst.every(Boolean)).toBe(true);
    const policy = document.querySelector<HTMLMetaElement>('meta[http-equiv="Content-Security-Policy"]')!.content;
    expect(policy).toBe(
      "img-src 'self' data: https://panel.example https://img.example https://cdn.other.example; media-src 'none'",
    );

    const [description, terms] = inHtmlBoxes(container, 'div[data-sanitized]');
    expect(description!.querySelector('h5')?.textContent).toBe('Coffee');
    expect(description!.querySelectorAll('img')).toHaveLength(0);
    expect(description!.textContent).toContain('A cup');
    // Only one button for the host, whichever sections its images are in; none for the tracker.
    expect(container.querySelectorAll('button')).toHaveLength(1);

    await click(show);
    expect([...description!.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://img.example/cup.png',
    ]);
    expect(terms!.querySelector('img')?.getAttribute('src')).toBe('https://img.example/fine.png');
    const pressed = getByRole(container, 'button', 'Images from img.example shown');
    expect(pressed).toBe(show);
    expect(pressed.getAttribute('aria-disabled')).toBe('true');
  });

  it('in a right-to-left page, the catalogue’s English reads left to right, each block by its own words', async () => {
    installI18n('ar');
    const reward = giftCard(3, 'Bluefin Coffee', 500, {});
    reward.meta_data = {
      ...reward.meta_data,
      description: '<p>Valid in all stores.</p><ul><li>No cash value.</li></ul><p>صالحة في جميع المتاجر.</p>',
    };
    const { rewards, html } = splitHtml([reward]);
    await sessionItem.setValue(CONNECTED);
    await rewardHtmlItem.setValue(html);
    render(<RewardDetails reward={rewards[0]!} redeem={null} />, container);
    const [description] = await waitFor(() => {
      const found = inHtmlBoxes(container, 'div[data-sanitized]');
      expect(found).toHaveLength(1);
      return found;
    });
    // The box takes the direction of its first words, not the page's: English, its bullets at the left.
    expect(description!.parentElement?.getAttribute('dir')).toBe('auto');
    // And each block its own, so an Arabic paragraph among English ones stays right to left.
    const blocks = [...description!.querySelectorAll('p, li')];
    expect(blocks.map((el) => getComputedStyle(el).unicodeBidi)).toEqual(['plaintext', 'plaintext', 'plaintext']);
  });
});
