import { describe, expect, it } from 'vitest';
import { kindLabel, latestRedemption, rewardImage, rewardProgress, valueRange } from '../../utils/reward-view';
import { giftCard, redemption, wallet } from './popup-fixtures';

describe('rewardProgress', () => {
  it('counts the points still missing when short', () => {
    expect(rewardProgress(200, 500)).toEqual({ ratio: 0.4, affordable: false, missing: 300 });
  });
  it('is affordable at exactly the cost and caps the ratio at 1', () => {
    expect(rewardProgress(500, 500)).toEqual({ ratio: 1, affordable: true, missing: 0 });
    expect(rewardProgress(900, 500).ratio).toBe(1);
  });
  it('knows nothing when the balance is unknown', () => {
    expect(rewardProgress(null, 500)).toEqual({ ratio: null, affordable: null, missing: null });
  });
});

describe('kindLabel', () => {
  it('labels gift cards and wallets, and shows other types as they come', () => {
    expect(kindLabel(giftCard(1, 'A', 1))).toBe('Gift card');
    expect(kindLabel({ ...giftCard(1, 'A', 1), type: 'x', meta_data: { reward_type: 'gift card' } })).toBe('Gift card');
    expect(kindLabel(wallet(2, 'B', 1))).toBe('Wallet');
    expect(kindLabel({ ...wallet(3, 'C', 1), type: 'crypto_voucher', meta_data: {} })).toBe('crypto_voucher');
  });
});

describe('rewardImage', () => {
  it('turns image_urls size keys into a width srcset, smallest first', () => {
    const image = rewardImage(giftCard(7, 'A', 1));
    expect(image).toEqual({
      src: 'https://img.example/7.png',
      srcset: 'https://img.example/7-80.png 80w, https://img.example/7-300.png 300w',
      sizes: '56px',
    });
  });
  it('falls back to image_url, then meta_data.image_url', () => {
    expect(rewardImage(wallet(3, 'W', 1))).toEqual({ src: 'https://img.example/3.png' });
    expect(rewardImage({ ...wallet(3, 'W', 1), image_url: '' })).toEqual({ src: 'https://img.example/3-meta.png' });
    expect(rewardImage({ ...wallet(3, 'W', 1), image_url: '', meta_data: {} })).toBeNull();
  });
});

describe('latestRedemption and valueRange', () => {
  it('picks the newest by created_at, whatever the order', () => {
    const r = giftCard(1, 'A', 500);
    const history = [
      redemption(1, r, '2025-01-09T16:25:40'),
      redemption(2, r, '2025-02-11T19:03:37'),
      redemption(3, r, '2024-12-01T00:00:00'),
    ];
    expect(latestRedemption(history)?.id).toBe('2');
    expect(latestRedemption([])).toBeNull();
  });
  it('breaks a tie within one second by the larger id, compared as a number (10 after 9)', () => {
    const r = giftCard(1, 'A', 500);
    const history = [redemption(10, r, '2025-02-11T19:03:37'), redemption(9, r, '2025-02-11T19:03:37')];
    expect(latestRedemption(history)?.id).toBe('10');
    expect(latestRedemption([...history].reverse())?.id).toBe('10');
  });
  it('reads a VARIABLE_VALUE range and ignores fixed ones', () => {
    const variable = giftCard(1, 'A', 500, {
      meta_data: { value_type: 'VARIABLE_VALUE', min_value: '5.00', max_value: '100.00' },
    });
    expect(valueRange(variable)).toEqual({ min: 5, max: 100 });
    expect(valueRange(giftCard(2, 'B', 500))).toBeNull();
  });
});
