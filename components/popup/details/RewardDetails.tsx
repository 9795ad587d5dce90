import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { formatMoneyRange } from '../../../utils/format';
import { t, type MessageKey } from '../../../utils/i18n';
import { countryList } from '../../../utils/region';
import { rewardImageOrigins, withHtml } from '../../../utils/reward-html';
import { valueRange } from '../../../utils/reward-view';
import { sanitizeHtml } from '../../../utils/sanitize';
import './details.css';
import { rewardHtmlItem, rewardsItem, sessionItem } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';
import { installImagePolicy } from './image-policy';
import { prepareRewardHtml, type PreparedHtml } from './reward-box';
import { RewardHtml } from './RewardHtml';

/** Summary first; legal text comes collapsed, so details are not a wall of terms. */
const COLLAPSED: ReadonlySet<MessageKey> = new Set(['detailsTerms', 'detailsDisclaimer']);

const SECTIONS: ReadonlyArray<readonly [MessageKey, (r: Reward) => string | undefined]> = [
  ['detailsDescription', (r: Reward) => r.meta_data?.description || r.meta_data?.short_description],
  ['detailsHowToRedeem', (r: Reward) => r.meta_data?.redemption_instructions],
  ['detailsTerms', (r: Reward) => r.meta_data?.terms],
  ['detailsDisclaimer', (r: Reward) => r.meta_data?.disclaimer],
];

interface Prepared {
  sections: Array<[MessageKey, PreparedHtml]>;
  /** Origins images are held back from, each once. */
  held: string[];
}

/**
 * The page's image policy, before any reward HTML is on it: the panel's origin and the catalogue's
 * image hosts. A catalogue stored before the list was kept has none: it is read whole then.
 */
async function imagePolicyFor(html: { imageOrigins?: string[] } | null): Promise<ReadonlySet<string>> {
  const session = await sessionItem.getValue();
  const catalogue = html?.imageOrigins ?? rewardImageOrigins((await rewardsItem.getValue())?.data.rewards ?? []);
  return installImagePolicy([...(session.origin ? [session.origin] : []), ...catalogue]);
}

interface Props {
  reward: Reward;
  redeem?: ComponentChildren;
  /** Only these sections (the outcome card's "How to use it" shows the instructions alone). */
  only?: MessageKey;
}

/**
 * Expanded details of one reward; its HTML fields pass through the lazily loaded sanitizer and are
 * shown each in a box of its own (RewardHtml), their images only on request. Ends with the
 * reward's Redeem button, so a panelist who read to the end need not scroll back.
 */
export function RewardDetails({ reward, redeem, only }: Props) {
  const [html, setHtml] = useState<Prepared | null>(null);
  const [failed, setFailed] = useState(false);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    // The stored catalogue keeps its HTML apart (utils/reward-html.ts): read here, when it is shown.
    const prepared = rewardHtmlItem.getValue().then(async (stored) => {
      const allowed = await imagePolicyFor(stored);
      const full = withHtml(reward, stored);
      const fields = SECTIONS.filter(([label]) => !only || label === only)
        .map(([label, pick]) => [label, pick(full) ?? ''] as const)
        .filter(([, v]) => v.trim());
      const sections = await Promise.all(
        fields.map(
          async ([label, raw]) =>
            [label, prepareRewardHtml(await sanitizeHtml(raw), allowed)] as [MessageKey, PreparedHtml],
        ),
      );
      return { sections, held: [...new Set(sections.flatMap(([, part]) => part.held))] };
    });
    prepared.then(
      (ready) => live && setHtml(ready),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [reward]);

  const range = only ? null : valueRange(reward);
  const currency = reward.meta_data?.currency_code || reward.cost_currency;
  // A range is said only as money: not with a currency that is not an ISO 4217 code (utils/format.ts).
  const rangeText = range && formatMoneyRange(range.min, range.max, currency);
  const countries = only ? [] : (reward.meta_data?.countries?.filter(Boolean) ?? []);
  return (
    <div class="details">
      {rangeText && (
        <p>
          <strong>{t('detailsValue')}</strong> <span class="qty">{rangeText}</span>
        </p>
      )}
      {countries.length > 0 && (
        <p>
          <strong>{t('detailsUsableIn')}</strong> {countryList(countries)}
        </p>
      )}
      {failed && <p class="muted">{t('detailsFailed')}</p>}
      {!html && !failed && (
        <p class="muted" aria-busy="true">
          {t('detailsLoading')}
        </p>
      )}
      {html && html.held.length > 0 && (
        <div class="held-images">
          <p class="muted">{t('detailsImagesHeld')}</p>
          {html.held.map((origin) => (
            <ShowImages
              key={origin}
              origin={origin}
              shown={shown.has(origin)}
              onShow={() => setShown(new Set([...shown, origin]))}
            />
          ))}
        </div>
      )}
      {html?.sections.map(([label, part]) =>
        COLLAPSED.has(label) ? (
          <details key={label} class="details-part">
            <summary>
              <h4>{t(label)}</h4>
            </summary>
            <RewardHtml content={part.content} shown={shown} label={t(label)} />
          </details>
        ) : (
          <section key={label} class="details-part">
            <h4>{t(label)}</h4>
            <RewardHtml content={part.content} shown={shown} label={t(label)} />
          </section>
        ),
      )}
      {html?.sections.length === 0 && range === null && countries.length === 0 && (
        <p class="muted">{t('detailsNone')}</p>
      )}
      {redeem && <div class="details-end">{redeem}</div>}
    </div>
  );
}

/**
 * "Show images from <host>": the host is named, since loading tells it who is looking. Once
 * pressed it stays where it is, saying they are shown, so focus is not lost.
 */
function ShowImages({ origin, shown, onShow }: { origin: string; shown: boolean; onShow(): void }) {
  const host = new URL(origin).host;
  return (
    <button
      type="button"
      class="btn btn-quiet btn-small"
      aria-disabled={shown || undefined}
      onClick={() => !shown && onShow()}
    >
      {t(shown ? 'detailsImagesShown' : 'detailsShowImages', host)}
    </button>
  );
}
