/** The extension's words in a language, as the e2e tests find controls by them. */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

export type Catalogue = Record<string, { message: string }>;
export type Say = (key: string, ...subs: string[]) => string;

export const catalogueOf = (locale: string): Catalogue =>
  JSON.parse(readFileSync(`public/_locales/${locale}/messages.json`, 'utf8')) as Catalogue;

/** A message with its `$1`… substitutions, as chrome.i18n gives it. */
export const sayIn =
  (messages: Catalogue): Say =>
  (key, ...subs) =>
    messages[key]!.message.replace(/\$([1-9])/g, (_, n: string) => subs[Number(n) - 1] ?? '');

/** Connects on the options page by the labels of `say`'s language, as the panelist reads them. */
export async function connectBy(options: Page, say: Say, account: { url: string; token: string }): Promise<void> {
  await options.getByLabel(say('accessToken')).waitFor();
  const address = options.getByLabel(say('apiBaseUrl'));
  // The build's own panel address sits behind "Advanced"; a test sandbox may run elsewhere.
  if (!(await address.isVisible())) await options.getByText(say('connectAdvanced'), { exact: true }).click();
  await address.fill(account.url);
  await options.getByLabel(say('accessToken')).fill(account.token);
  await options.getByRole('button', { name: say('connect'), exact: true }).click();
  await options.getByRole('button', { name: say('disconnect'), exact: true }).waitFor();
}
