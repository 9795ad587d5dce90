/** A number and its unit are one unbreakable pair in every language. */
import { describe, expect, it } from 'vitest';
import { tp } from '../../utils/i18n';
import { qtyParts } from '../../utils/qty';
import { installI18n } from './i18n-setup';

const pairs = (text: string) => qtyParts(text).flatMap((p) => (typeof p === 'string' ? [] : [p.qty]));

describe('the pairs a text holds', () => {
  it('Japanese: the number and the katakana unit, not the particle or the kanji after it', () => {
    expect(pairs('Atlas Travel £100 Gift Card まであと 8,500 ポイント')).toContain('8,500 ポイント');
    expect(pairs('あと 700 ポイント必要です')).toEqual(['700 ポイント']);
    expect(pairs('交換できなかった分の 500 ポイントが戻りました。')).toEqual(['500 ポイント']);
  });

  it('English, German, French, Polish and Arabic, with each language’s separators', () => {
    expect(pairs('You need 700 more points')).toEqual(['700 more points']);
    expect(pairs('1,640 points earned in the last 30 days. About 3 weeks to go at this pace.')).toEqual([
      '1,640 points',
      '30 days',
      '3 weeks',
    ]);
    expect(pairs('Noch 4.000 Punkte bis Target $50')).toEqual(['4.000 Punkte']);
    expect(pairs('2\u202f500 points')).toEqual(['2\u202f500 points']);
    expect(pairs('2\u00a0500 punktów')).toEqual(['2\u00a0500 punktów']);
    expect(pairs('لديك ٢٬٥٠٠ نقطة')).toEqual(['٢٬٥٠٠ نقطة']);
  });

  it('the text is kept whole, in order; a text without a pair is one part', () => {
    const text = 'You have 300 points; this reward needs 1,000.';
    expect(qtyParts(text)).toEqual(['You have ', { qty: '300 points' }, '; this reward needs 1,000.']);
    expect(qtyParts('Settings')).toEqual(['Settings']);
    expect(qtyParts('')).toEqual(['']);
  });

  it('every count the catalogues say, in every language, is one pair', () => {
    for (const lang of ['en', 'de', 'fr', 'pl', 'ja', 'ar', 'nl', 'es', 'it', 'pt_BR']) {
      installI18n(lang);
      for (const n of [5, 500, 11_000, 1_234_567])
        expect(pairs(tp('points', n)), `${lang} ${n}`).toEqual([tp('points', n)]);
    }
    installI18n('en');
  });
});
