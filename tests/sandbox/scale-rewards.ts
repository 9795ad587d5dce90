/** Synthesized rewards for scaled seeds: brand × denomination, like a real gift-card catalog. */
import type { RewardMeta } from '../../utils/types';
import type { Reward } from './types';
import type { Random } from './random';

const BRAND_FIRST = [
  'Silver',
  'Maple',
  'Harbor',
  'Copper',
  'Summit',
  'Lantern',
  'Cedar',
  'Willow',
  'Granite',
  'Juniper',
  'Meadow',
  'Orbit',
];
const BRAND_SECOND = [
  'Outfitters',
  'Kitchen',
  'Books',
  'Cinemas',
  'Market',
  'Electronics',
  'Spa',
  'Games',
  'Travel',
  'Florist',
  'Pharmacy',
  'Bakery',
];
const IMAGE_SIZES = ['80w-326ppi', '130w-326ppi', '200w-326ppi', '278w-326ppi', '300w-326ppi', '1200w-326ppi'];
const DENOMINATIONS = [5, 10, 15, 20, 25, 50, 75, 100];

/** Points per currency unit, so points track value across currencies. */
const MARKETS = [
  { currency: 'USD', countries: ['US'], pointsPerUnit: 100 },
  { currency: 'USD', countries: ['US', 'CA'], pointsPerUnit: 100 },
  { currency: 'EUR', countries: ['DE', 'AT'], pointsPerUnit: 110 },
  { currency: 'GBP', countries: ['GB'], pointsPerUnit: 115 },
] as const;

const slugOf = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function synthesizeReward(id: number, index: number, random: Random): Reward {
  // Four denominations per brand, as catalogs list them.
  const brandIndex = Math.floor(index / 4);
  const brand = `${BRAND_FIRST[brandIndex % BRAND_FIRST.length]} ${BRAND_SECOND[Math.floor(brandIndex / BRAND_FIRST.length) % BRAND_SECOND.length]}`;
  const market = random.pick(MARKETS);
  const cost = random.pick(DENOMINATIONS);
  const points = cost * market.pointsPerUnit;
  const slug = `${slugOf(brand)}-${id}`;

  if (index % 5 === 4) {
    return {
      id,
      name: `PayWave ${cost} ${market.currency} Transfer`,
      cost,
      cost_currency: market.currency,
      type: 'payment_wallet',
      image_url: `https://images.sandbox.invalid/wallets/paywave/${id}-300.png`,
      meta_data: { image_url: `https://images.sandbox.invalid/wallets/paywave/${id}-1200.png` },
      reward_point_cost: points,
    };
  }
  const name = `${brand} ${cost} ${market.currency} Gift Card`;
  return {
    id,
    name,
    cost,
    cost_currency: market.currency,
    type: 'giftcard_aggregator',
    image_url: `https://images.sandbox.invalid/giftcards/${slug}/300w-326ppi.png`,
    meta_data: giftCardMeta({
      id,
      brand,
      name,
      slug,
      cost,
      currency: market.currency,
      countries: [...market.countries],
      variable: random.next() < 0.25,
    }),
    reward_point_cost: points,
  };
}

interface MetaInput {
  id: number;
  brand: string;
  name: string;
  slug: string;
  cost: number;
  currency: string;
  countries: string[];
  variable: boolean;
}

function giftCardMeta({ id, brand, name, slug, cost, currency, countries, variable }: MetaInput): RewardMeta {
  const site = `${slugOf(brand)}.example`;
  return {
    utid: `U${600000 + id}`,
    terms: `<p>Redeemable at <a href="https://www.${site}/">${site}</a> and participating ${brand} stores.</p><ul><li>Not exchangeable for cash.</li><li>Lost cards cannot be replaced.</li></ul>`,
    brand_key: `B${400000 + Math.floor(id / 4)}`,
    countries,
    min_value: (variable ? 1 : cost).toFixed(2),
    max_value: (variable ? Math.max(cost * 4, 100) : cost).toFixed(2),
    brand_name: brand,
    disclaimer: `<p><strong>${brand}</strong> is not a sponsor of this rewards program.</p>`,
    image_urls: Object.fromEntries(
      IMAGE_SIZES.map((size) => [size, `https://images.sandbox.invalid/giftcards/${slug}/${size}.png`]),
    ),
    value_type: variable ? 'VARIABLE_VALUE' : 'FIXED_VALUE',
    description: `<p>Shop ${brand} online or in store. <strong>No fees</strong>, no expiry.</p>`,
    reward_name: name,
    reward_type: 'gift card',
    currency_code: currency,
    short_description: `<p>Spend it at ${brand}.</p>`,
    redemption_instructions: `<p>Visit <a href="https://www.${site}/redeem">${site}/redeem</a> and enter your claim code.</p><ul><li>Online: at checkout.</li><li>In store: show the code at the till.</li></ul>`,
  };
}
