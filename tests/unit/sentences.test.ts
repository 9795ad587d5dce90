/**
 * Messages joined into one text as their language writes it: a space between sentences, none
 * after a Japanese "。", and a full stop of the right kind where a sentence has none.
 */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../components/options/error-text';
import { appError } from '../../utils/errors';
import { asName } from '../../utils/qty';
import { asSentence, gap, sentences } from '../../utils/sentences';
import { catalogue } from './catalogues';
import { installI18n } from './i18n-setup';

describe('sentences', () => {
  it('joins with a space, or with nothing after a full-width full stop', () => {
    expect(sentences('Nothing was saved.', 'Try again.')).toBe('Nothing was saved. Try again.');
    expect(sentences('保存されませんでした。', 'もう一度お試しください。')).toBe(
      '保存されませんでした。もう一度お試しください。',
    );
    expect(sentences('لم يُحفظ شيء.', 'حاول مرة أخرى.')).toBe('لم يُحفظ شيء. حاول مرة أخرى.');
    expect(sentences('', 'Try again.', '  ')).toBe('Try again.');
  });

  it('ends a sentence that has no full stop with one of its own script', () => {
    expect(asSentence('Out of stock')).toBe('Out of stock.');
    expect(asSentence('在庫切れ')).toBe('在庫切れ。');
    expect(asSentence('Out of stock!')).toBe('Out of stock!');
    expect(asSentence('هل أنت متأكد؟')).toBe('هل أنت متأكد؟');
    expect(asSentence('')).toBe('');
  });

  it('puts a space before what follows a sentence, except after "。"', () => {
    expect(gap('Done.')).toBe(' ');
    expect(gap('完了しました。')).toBe('');
    // A reward's name set as one unit (asName) ends with its closing isolate, not its "。".
    expect(gap(asName('在庫切れ。'))).toBe('');
    expect(gap(asName('Out of stock.'))).toBe(' ');
  });
});

describe('an error with its next step, in Japanese', () => {
  it('reads as Japanese: one full stop per sentence, no space between them', () => {
    installI18n('ja');
    const ja = catalogue('ja');
    const text = errorText(appError('server', '', { status: 500, endpoint: '/v1/panel/rewards' }));
    expect(text).toBe(`${ja.errPanelServer!.message.replace('$1', 'Panel Rewards')}${ja.stepServer!.message}`);
    expect(text).not.toMatch(/[。.]\s*\./);
    // The panel's own words without a full stop get one of their own script.
    expect(errorText(appError('rejected', '在庫切れ', { status: 409 }))).toBe('在庫切れ');
    expect(errorText(appError('unexpected', '応答を読み取れません'), ja.stepUnexpected!.message)).toBe(
      `応答を読み取れません。${ja.stepUnexpected!.message}`,
    );
  });
});
