import { describe, expect, it } from 'vitest';
import { safeImageUrl, withSafeImages } from '../../utils/image-url';
import type { Reward } from '../../utils/types';
import { rid } from './test-ids';

const PANEL = 'http://127.0.0.1:8787';

describe('which reward image addresses a page may load', () => {
  it('keeps https images of catalogue hosts and anything on the panel’s own origin', () => {
    expect(safeImageUrl('https://img.example/coffee.png', PANEL)).toBe('https://img.example/coffee.png');
    expect(safeImageUrl('http://127.0.0.1:8787/img/1.png', PANEL)).toBe('http://127.0.0.1:8787/img/1.png');
  });

  it.each([
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'ftp://img.example/a.png',
    'http://img.example/a.png',
    'https://169.254.169.254/latest/meta-data',
    'https://0xA9FEA9FE/x.png',
    'https://10.0.0.5/a.png',
    'https://192.168.1.1/a.png',
    'https://172.20.0.1/a.png',
    'https://127.0.0.2/a.png',
    'https://localhost/a.png',
    'https://[::1]/a.png',
    'https://[fe80::1]/a.png',
    'http://127.0.0.1:9999/a.png',
    'not a url',
    '',
  ])('drops %s', (url) => {
    expect(safeImageUrl(url, PANEL)).toBe('');
  });

  // Chromium resolves a name with its trailing dot as the name: `localhost.` is 127.0.0.1.
  it.each([
    'https://localhost./card.png',
    'https://router.localhost./card.png',
    'https://LOCALHOST../card.png',
    'https://127.0.0.1../card.png',
    'https://0x7f.1../card.png',
    'https://printer.local./card.png',
    'https://[::ffff:127.0.0.1]/card.png',
    'https://[::ffff:192.168.1.1]/card.png',
    'https://[::127.0.0.1]/card.png',
    'https://[64:ff9b::10.0.0.1]/card.png',
    'https://224.0.0.1/card.png',
    'https://router/card.png',
  ])('drops %s: a host off the open internet, however it is spelled', (url) => {
    expect(safeImageUrl(url, PANEL)).toBe('');
  });

  it('keeps a public host written with a trailing dot or in another script', () => {
    for (const url of ['https://img.example./a.png', 'https://bücher.example/a.png', 'https://[::ffff:8.8.8.8]/a.png'])
      expect(safeImageUrl(url, PANEL)).toBe(url);
  });

  it('cleans every image a reward carries, and nothing else', () => {
    const reward: Reward = {
      id: rid(1),
      name: 'Coffee',
      cost: 5,
      cost_currency: 'USD',
      type: 'gift_card',
      image_url: 'javascript:alert(1)',
      reward_point_cost: 500,
      meta_data: {
        image_url: 'https://169.254.169.254/x',
        image_urls: { '80w-326ppi': 'https://img.example/80.png', '300w-326ppi': 'ftp://img.example/300.png' },
        terms: '<p>x</p>',
      },
    };
    expect(withSafeImages([reward], PANEL)[0]).toEqual({
      ...reward,
      image_url: '',
      meta_data: { image_url: '', image_urls: { '80w-326ppi': 'https://img.example/80.png' }, terms: '<p>x</p>' },
    });
  });

  // Breakage it was seen to fail on: the shortcut keyed by the address's start without its port
  // (`/^[a-z]+:\/\/[^/?#:]*/`): the panel's own port then speaks for another port of its host.
  it('judges a catalogue of addresses as each is judged alone, however many share how they start', () => {
    const addresses = [
      'https://img.example/1.png',
      'https://img.example/2.png?w=80#x',
      'http://127.0.0.1:8787/img/1.png',
      'http://127.0.0.1:9999/img/1.png',
      'http://127.0.0.1:8787/img/2.png',
      'https://img.example:99999/1.png',
      'https://img.example:99999/2.png',
      'https://localhost/a.png',
      'https://localhost/b.png',
      'https://img.example\\@localhost/c.png',
      'https://user@img.example/d.png',
      'https://IMG.example/e.png',
      'https://[::1]/f.png',
      'https://[::1/g.png',
      'javascript://img.example/%0aalert(1)',
      'https://img.example',
      'https://img.example?x',
    ];
    const rewards = [...addresses, ...addresses].map((url, i): Reward => ({
      id: rid(i + 1),
      name: 'Reward',
      cost: 5,
      cost_currency: 'USD',
      type: 'gift_card',
      image_url: url,
      reward_point_cost: 500,
      meta_data: { image_url: url, image_urls: { '80w-326ppi': url } },
    }));
    const judged = withSafeImages(rewards, PANEL);
    judged.forEach((reward, i) => {
      const alone = safeImageUrl(rewards[i]!.image_url, PANEL);
      expect([reward.image_url, reward.meta_data.image_url]).toEqual([alone, alone]);
      expect(reward.meta_data.image_urls).toEqual(alone ? { '80w-326ppi': alone } : {});
    });
    expect(judged.filter((r) => r.image_url !== '').length).toBeGreaterThan(4);
  });
});
