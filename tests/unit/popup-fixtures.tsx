/**
 * Shared by the popup component tests: data builders, rendering, and role/name queries in the
 * spirit of Testing Library (not installed) over plain DOM.
 */
import { parseBody, rewardsResponseSchema } from '../../utils/api/schemas';
import { render } from 'preact';
import { App } from '../../components/popup/App';
import {
  historyItem,
  ledgerItem,
  rewardsItem,
  sessionItem,
  syncItem,
  type LedgerEntry,
  type SyncState,
} from '../../utils/storage-items';
import type { Redemption, Reward } from '../../utils/types';
import { at, did, rid } from './test-ids';

export const CONNECTED = {
  connected: true,
  baseUrl: 'https://panel.example',
  origin: 'https://panel.example',
  tokenHint: 'abcd',
  rejected: false,
  id: 'popup-test-session',
};

export function giftCard(id: number, name: string, points: number, extra: Partial<Reward> = {}): Reward {
  return {
    id: rid(id),
    name,
    cost: points / 100,
    cost_currency: 'USD',
    type: 'giftcard_aggregator',
    image_url: `https://img.example/${id}.png`,
    meta_data: {
      reward_type: 'gift card',
      brand_name: name.split(' ')[0],
      image_urls: {
        '80w-326ppi': `https://img.example/${id}-80.png`,
        '300w-326ppi': `https://img.example/${id}-300.png`,
      },
      value_type: 'FIXED_VALUE',
      countries: ['US'],
    },
    reward_point_cost: points,
    ...extra,
  };
}

export function wallet(id: number, name: string, points: number): Reward {
  return {
    id: rid(id),
    name,
    cost: points / 100,
    cost_currency: 'EUR',
    type: 'payment_wallet',
    image_url: `https://img.example/${id}.png`,
    meta_data: { image_url: `https://img.example/${id}-meta.png` },
    reward_point_cost: points,
  };
}

export function redemption(id: number, reward: Reward, createdAt: string, extra: Partial<Redemption> = {}): Redemption {
  return {
    id: did(id),
    cost: reward.cost,
    currency: reward.cost_currency,
    reward_point_cost: reward.reward_point_cost ?? 0,
    reward: { ...reward, reward_point_cost: null },
    approved: false,
    processed: false,
    created_at: at(createdAt),
    updated_at: createdAt,
    failed: false,
    refunded: false,
    partner_status: null,
    failed_reason: null,
    transaction_id: null,
    ...extra,
  };
}

export const IDLE: SyncState = { loading: false, error: null, attemptedAt: 0 };

export async function seed(options: {
  rewards?: Reward[];
  /** Points; null: the panel shows none; 'unread': not read beside the rewards. */
  balance?: number | null | 'unread';
  fetchedAt?: number;
  history?: Redemption[];
  rewardsSync?: Partial<SyncState>;
  ledger?: LedgerEntry | null;
}): Promise<void> {
  await sessionItem.setValue(CONNECTED);
  if (options.rewards) {
    await rewardsItem.setValue({
      data: {
        rewards: options.rewards,
        balance:
          options.balance === 'unread'
            ? { points: null, source: 'unread' }
            : options.balance === null
              ? { points: null, source: 'unknown' }
              : { points: options.balance ?? 0, source: 'rewards' },
      },
      fetchedAt: options.fetchedAt ?? Date.now() - 120_000,
    });
  }
  if (options.history) await historyItem.setValue({ data: options.history, fetchedAt: Date.now() });
  await syncItem.setValue({ rewards: { ...IDLE, ...options.rewardsSync }, history: IDLE, profile: IDLE });
  if (options.ledger !== undefined) await ledgerItem.setValue(options.ledger);
}

export function ledger(state: LedgerEntry['state'], extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    requestId: `req-${state}`,
    rewardId: rid(1),
    rewardName: 'Amazon $5',
    points: 500,
    startedAt: Date.now() - 1000,
    state,
    ...extra,
  };
}

let root: HTMLElement | null = null;

export function mount(): HTMLElement {
  unmount();
  root = document.createElement('div');
  document.body.append(root);
  render(<App />, root);
  return root;
}

export function unmount(): void {
  if (root) {
    render(null, root);
    root.remove();
    root = null;
  }
}

/**
 * Retries until the callback stops throwing, or its promise stops rejecting, like Testing Library's
 * waitFor. It gives up after 10 s, well inside the test's 20 s, so a busy machine's slow storage
 * reads are waited for, not failed.
 */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // Awaited here: an async check's rejection is a throw to retry, not the caller's failure.
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** `el`, or an error saying what is not there yet: waitFor retries a throw, never a null. */
export function found<T>(el: T | null | undefined, what: string): T {
  if (el === null || el === undefined) throw new Error(`${what} is not there`);
  return el;
}

const IMPLICIT_ROLES: Record<string, (el: Element) => string | null> = {
  BUTTON: () => 'button',
  A: (el) => (el.hasAttribute('href') ? 'link' : null),
  INPUT: (el) => {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'checkbox') return 'checkbox';
    if (type === 'search') return 'searchbox';
    return 'textbox';
  },
  PROGRESS: () => 'progressbar',
  SELECT: () => 'combobox',
  SECTION: (el) => (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null),
  UL: () => 'list',
  LI: () => 'listitem',
  H1: () => 'heading',
  H2: () => 'heading',
  H3: () => 'heading',
  H4: () => 'heading',
};

function roleOf(el: Element): string | null {
  return el.getAttribute('role') ?? IMPLICIT_ROLES[el.tagName]?.(el) ?? null;
}

function text(el: Element | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Accessible name, for the cases this popup uses: aria-label, aria-labelledby, label, text. */
export function nameOf(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label) return label.trim();
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy)
    return labelledBy
      .split(/\s+/)
      .map((id) => text(document.getElementById(id)))
      .join(' ');
  if (el.id) {
    const forLabel = document.querySelector(`label[for="${el.id}"]`);
    if (forLabel) return text(forLabel);
  }
  const wrapping = el.closest('label');
  if (wrapping && el.tagName === 'INPUT') return text(wrapping);
  return text(el);
}

/** Hidden by `hidden` or inside it; matches what a screen reader or a user can reach. */
function isHidden(el: Element): boolean {
  return el.closest('[hidden]') !== null;
}

export function queryAllByRole(container: ParentNode, role: string, name?: string | RegExp): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>('*')).filter((el) => {
    if (roleOf(el) !== role || isHidden(el)) return false;
    if (name === undefined) return true;
    const accessible = nameOf(el);
    return typeof name === 'string' ? accessible === name : name.test(accessible);
  });
}

export function getByRole(container: ParentNode, role: string, name?: string | RegExp): HTMLElement {
  const found = queryAllByRole(container, role, name);
  if (found.length !== 1) {
    const all = queryAllByRole(container, role).map((el) => `"${nameOf(el)}"`);
    throw new Error(`Expected one ${role} named ${String(name)}, found ${found.length}. ${role}s: ${all.join(', ')}`);
  }
  return found[0]!;
}

export function getByText(container: ParentNode, match: string | RegExp): HTMLElement {
  const hits = Array.from(container.querySelectorAll<HTMLElement>('*')).filter((el) => {
    const own = text(el);
    const ok = typeof match === 'string' ? own.includes(match) : match.test(own);
    // The innermost element holding the text, not each of its ancestors.
    return (
      ok &&
      !Array.from(el.children).some((child) =>
        typeof match === 'string' ? text(child).includes(match) : match.test(text(child)),
      )
    );
  });
  if (hits.length === 0) throw new Error(`No element with text ${String(match)} in: ${text(container as Element)}`);
  return hits[0]!;
}

export function queryByText(container: ParentNode, match: string | RegExp): HTMLElement | null {
  try {
    return getByText(container, match);
  } catch {
    return null;
  }
}

/** Names of the reward rows in display order. */
export function rewardOrder(container: ParentNode): string[] {
  return Array.from(container.querySelectorAll('.reward-name')).map((el) => text(el));
}

export async function click(el: HTMLElement): Promise<void> {
  el.click();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

export async function type(input: HTMLInputElement, value: string): Promise<void> {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Chooses `value` in a select, as a panelist picking an option does. */
export async function choose(select: HTMLElement, value: string): Promise<void> {
  (select as HTMLSelectElement).value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Rewards as the API client reads them from a panel's answer (the real response schema). */
export const parsedRewards = (rewards: unknown[]): Reward[] =>
  parseBody(rewardsResponseSchema, { message: 'success', rewards }, '/v1/panel/rewards').rewards;
