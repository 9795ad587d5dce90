/** A number and its unit are one unbreakable pair in every language. */
import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyRange } from '../../utils/format';
import { tp } from '../../utils/i18n';
import { asName, isolateFigures, qtyParts } from '../../utils/qty';
import { installI18n } from './i18n-setup';

const pairs = (text: string) => qtyParts(text).flatMap((p) => (typeof p !== 'string' && 'qty' in p ? [p.qty] : []));

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
    expect(pairs('Noch 4.000 Punkte bis Target $50')).toEqual(['4.000 Punkte', '$50']);
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

describe('a name from the panel is one unit', () => {
  const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein';

  it('no figure is taken out of a name set into a message: it reads as its row shows it', () => {
    expect(qtyParts(`Noch 800 Punkte bis ${asName(GOAL)}`)).toEqual([
      'Noch ',
      { qty: '800 Punkte' },
      ' bis ',
      { name: GOAL },
    ]);
    expect(qtyParts(`${asName('PayWave 50 € Transfer')} für 500 Punkte einlösen?`)).toEqual([
      { name: 'PayWave 50 € Transfer' },
      ' für ',
      { qty: '500 Punkte' },
      ' einlösen?',
    ]);
  });

  it('a name’s own isolates cannot end it early', () => {
    expect(qtyParts(asName('A \u2069B 5 €'))).toEqual([{ name: 'A B 5 €' }]);
  });

  it('Arabic: the figure is the number and its unit, not the verb after it', () => {
    expect(pairs(`٨٠٠ نقطة تفصلك عن ${asName(GOAL)}`)).toEqual(['٨٠٠ نقطة']);
    expect(pairs('سيستهلك الاستبدال مرة أخرى 500 نقطة إضافية.')).toEqual(['500 نقطة']);
  });

  it('text without markup keeps the name between its isolates, whatever the direction', () => {
    expect(isolateFigures(`500 نقطة ${asName(GOAL)}`, 'rtl')).toBe(`\u2068500 نقطة\u2069 \u2068${GOAL}\u2069`);
  });
});

describe('money is one figure, its currency never cut off', () => {
  it('the amount with its symbol or code before or after it, as Intl writes it in every language', () => {
    for (const locale of ['en-US', 'en-GB', 'de', 'ar', 'ja', 'fr', 'nl', 'pl', 'es', 'it', 'pt-BR']) {
      for (const currency of ['USD', 'EUR', 'GBP', 'JPY', 'BRL']) {
        const money = formatMoney(1234.5, currency, locale)!;
        expect(pairs(`${money} · 500 points`), `${locale} ${currency}`).toEqual([money, '500 points']);
      }
    }
  });

  it('the cut the Arabic row showed: “5.00 US$” whole, not “5.00 US” and a stray “$”', () => {
    const money = formatMoney(5, 'USD', 'ar')!;
    expect(pairs(`${money} · 500 نقطة`)).toEqual([money, '500 نقطة']);
    expect(money.endsWith('US$')).toBe(false);
  });

  it('an amount in a reward’s name is a figure too; a word ending in capitals before a number is not a currency', () => {
    expect(pairs('PayWave 50 € Transfer')).toEqual(['50 €']);
    expect(pairs('PayWave $10 Transfer')).toEqual(['$10']);
    expect(pairs('USD 5.00')).toEqual(['USD 5.00']);
    expect(pairs('ABCUSD 5')).toEqual([]);
  });
});

describe('money laid out right to left', () => {
  it('in Arabic a currency in Latin letters with a symbol is one left-to-right token; elsewhere money is as Intl writes it', () => {
    expect(formatMoney(5, 'USD', 'ar')).toBe('\u200f5.00\u00a0\u2066US$\u2069');
    expect(formatMoney(25, 'EUR', 'ar')).toBe(
      new Intl.NumberFormat('ar', { style: 'currency', currency: 'EUR' }).format(25),
    );
    expect(formatMoney(5, 'USD', 'fr')).toBe(
      new Intl.NumberFormat('fr', { style: 'currency', currency: 'USD' }).format(5),
    );
  });
});

describe('a range of money, as each language writes one', () => {
  it('one range, not two amounts joined by a dash: the currency once where the language says it once', () => {
    expect(formatMoneyRange(5, 100, 'USD', 'en')).toBe('$5.00 – $100.00');
    expect(formatMoneyRange(5, 100, 'EUR', 'de')).toBe('5,00–100,00\u00a0€');
    expect(formatMoneyRange(5, 100, 'USD', 'ja')).toBe('$5.00 ～ $100.00');
    // Right to left, the currency in Latin letters stays one left-to-right token, as for one amount.
    expect(formatMoneyRange(5, 100, 'USD', 'ar')).toBe('\u200f5.00–100.00\u00a0\u2066US$\u2069');
  });

  it('no range unless both ends are money', () => {
    expect(formatMoneyRange(5, -1, 'USD', 'en')).toBeNull();
    expect(formatMoneyRange(Number.NaN, 100, 'USD', 'en')).toBeNull();
    expect(formatMoneyRange(5, 100, 'dollars', 'en')).toBeNull();
  });
});

describe('figures isolated in text without markup', () => {
  it('right to left: each figure between FSI and PDI, the rest as it was', () => {
    expect(isolateFigures('PayWave $10 Transfer: 500 نقطة', 'rtl')).toBe(
      'PayWave \u2068$10\u2069 Transfer: \u2068500 نقطة\u2069',
    );
  });

  it('left to right: unchanged', () => {
    expect(isolateFigures('PayWave $10 Transfer: 500 points', 'ltr')).toBe('PayWave $10 Transfer: 500 points');
  });
});
