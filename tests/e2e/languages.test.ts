/**
 * The built extension in a browser set to Polish: Chrome picks `_locales/pl`, finds the plural
 * forms only Polish has (`points_few`, `points_many`), describes the extension in Polish, and a
 * panelist connects by the Polish labels and reads the balance in the Polish form for its number.
 * (Arabic and Japanese end-to-end runs come with issue 22's second part.)
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchExtension, type ExtensionSession } from './harness';

const pl = JSON.parse(readFileSync('public/_locales/pl/messages.json', 'utf8')) as Record<string, { message: string }>;
const say = (key: string) => pl[key]!.message;

describe('a Polish browser', () => {
  let ext: ExtensionSession;
  beforeAll(async () => {
    ext = await launchExtension({ locale: 'pl' });
  });
  afterAll(async () => {
    await ext?.close();
  });

  test('chrome.i18n answers from pl, including the forms English does not have; the manifest is described in Polish', async () => {
    const worker = await ext.worker();
    const found = await worker.evaluate(async () => ({
      lang: chrome.i18n.getMessage('lang'),
      few: chrome.i18n.getMessage('points_few', ['3']),
      many: chrome.i18n.getMessage('points_many', ['5']),
      one: chrome.i18n.getMessage('points_one', ['1']),
      description: (await chrome.management.getSelf()).description,
    }));
    expect(found).toEqual({
      lang: 'pl',
      few: '3 punkty',
      many: '5 punktów',
      one: '1 punkt',
      description: `Panel Rewards: ${say('extDescription')}`,
    });
  });

  test('connect by the Polish labels, then the popup reads Polish, the balance in the form for its number', async () => {
    const options = await ext.openPage('options.html');
    expect(await options.evaluate(() => document.documentElement.lang)).toBe('pl');
    await options.getByLabel(say('accessToken')).waitFor();
    await options.getByText(say('connectAdvanced'), { exact: true }).click();
    await options.getByLabel(say('apiBaseUrl')).fill(ext.sandbox.url);
    await options.getByLabel(say('accessToken')).fill(ext.sandbox.token);
    await options.getByRole('button', { name: say('connect'), exact: true }).click();
    await options.getByRole('button', { name: say('disconnect'), exact: true }).waitFor();
    await options.close();

    const popup = await ext.openPage('popup.html');
    const balance = popup.locator('.hdr-balance');
    await balance.waitFor();
    const text = (await balance.textContent())!;
    const count = Number(text.replace(/\D/g, ''));
    const form = new Intl.PluralRules('pl').select(count);
    expect(text).toBe(say(`balancePoints_${form}`).replace('$1', new Intl.NumberFormat('pl').format(count)));
    await popup.getByRole('heading', { name: say('rewardsHeading') }).waitFor();
    expect(await popup.getByRole('button', { name: new RegExp(`^${say('redeemButton')} `) }).count()).toBeGreaterThan(0);
  });
});
