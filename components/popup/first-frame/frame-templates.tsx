import { createElement, type VNode } from 'preact';
import { renderToStaticMarkup } from 'preact-render-to-string';
import type { AppError } from '../../../utils/errors';
import type { BalanceSample } from '../../../utils/balance-trend';
import type { Goal } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';
import { shapeModel, SLOT, type PartName } from './first-frame';
import { markers, shapeOf, type Model } from './frame-fill';
import { GoalPanelView } from '../GoalPanel';
import { goalModel } from '../model/goal-model';
import { HeaderView } from '../Header';
import { ProfileLine } from '../ProfileLine';
import { headerModel } from '../model/header-model';
import { listModel } from '../model/list-model';
import { PageLayout, PromptLayout } from '../PopupLayout';
import { promptModel } from '../model/prompt-model';
import { PromptView } from '../PromptView';
import { ListView } from '../RewardList';
import { RowView, ValueSelect } from '../RewardRow';
import { rowModel } from '../model/row-model';
import { syncStatusModel } from '../model/status-model';
import { SyncStatus } from '../SyncNotice';
import type { RewardId } from '../../../utils/ids';
import { defaultChoice } from '../../../utils/reward-groups';

/**
 * The popup's first-frame templates, rendered at build time from the popup's own view
 * components (utils/build/first-frame-html.ts puts them into popup.html): for each part, one template per
 * shape its model takes in the states sampled below, with markers where the text goes. A state whose
 * shape is not among them is simply not painted by the first frame (Preact paints it), so the samples
 * decide what the first frame covers, never whether it is right.
 */

/** Where a part's children go; named: where a subpart's own template goes (first-frame.ts SUBPARTS). */
const slot = (name?: string) => createElement(SLOT, name ? { name } : null);

const NOW = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;
const OPEN_QUESTIONS = { open: 3, total: 8, first: 'PETS', fetchedAt: NOW - DAY };
const network: AppError = { kind: 'network', message: 'offline', endpoint: '/v1/panel/rewards' };
const refused: AppError = { kind: 'server', message: 'refused', status: 503, endpoint: '/v1/panel/rewards' };
const ours: AppError = { kind: 'unexpected', message: 'no answer' };

/** A reward as the panel lists it; `refused`: a points cost the extension cannot mean (utils/api/records.ts). */
function reward(id: number, points: number | null | 'refused', image: 'set' | 'one' | 'none'): Reward {
  const cost =
    points === 'refused' ? { reward_point_cost: null, costRefused: true as const } : { reward_point_cost: points };
  return {
    ...cost,
    id: String(id) as RewardId,
    name: `Reward ${id}`,
    // Each value its own, so no two are alike (valueChoices would show them as one).
    cost: id,
    cost_currency: 'USD',
    type: 'giftcard',
    image_url: image === 'none' ? '' : `https://img.example/${id}.png`,
    meta_data:
      image === 'set'
        ? {
            image_urls: {
              '80w-326ppi': `https://img.example/${id}-80.png`,
              '300w-326ppi': `https://img.example/${id}-300.png`,
            },
          }
        : {},
  };
}

const samples: BalanceSample[] = [0, 1, 2, 3].map((i) => ({ at: NOW - (40 - i * 10) * DAY, points: 100 + i * 400 }));
const goalOf = (rewardId: number): Goal => ({
  account: 'a',
  rewardId: String(rewardId) as RewardId,
  rewardName: 'Goal',
  setAt: NOW - DAY,
});

type Sample = [PartName, Model];

/** The header in each state a live popup shows it, and before any connection. */
function headerSamples(): Sample[] {
  const out: Sample[] = [['header', headerModel({ now: NOW })]];
  for (const points of [1000, null]) {
    for (const next of [true, false]) {
      for (const error of [null, network, refused, ours]) {
        for (const loading of [false, true]) {
          const input = {
            now: NOW,
            live: true,
            balance: { points, source: 'rewards' as const },
            rewards: next ? [reward(1, 5000, 'set')] : [],
            fetchedAt: NOW - 60_000,
            error,
            loading,
            refreshable: true,
          };
          out.push(['header', headerModel(input)]);
        }
      }
    }
  }
  out.push(['questions', headerModel({ now: NOW, live: true, questions: OPEN_QUESTIONS }).questions!]);
  return out;
}

/**
 * A row for every balance, image, cost and goal a reward alone or a brand of several can have. Rows
 * held back by a redemption on its way are never the first frame's: it ends above that redemption's
 * card. Each shape costs every popup opening its parse, about 1 KiB of markup.
 */
function rowSamples(): Sample[] {
  const out: Sample[] = [];
  for (const balance of [1000, null, -10]) {
    for (const image of ['set', 'one', 'none'] as const) {
      for (const cost of [null, 0, 500, 5000, 'refused'] as const) {
        // No goal, a goal on the brand's first value, a goal on a later one (the row then starts on it).
        for (const goal of [null, '2', '4'] as Array<RewardId | null>) {
          // A reward alone, and a brand of three values, starting on the value App starts it on.
          const alone = { key: 'a', title: 'Brand', rewards: [reward(2, cost, image)] };
          const brand = {
            key: 'b',
            title: 'Brand',
            rewards: [
              reward(2, cost, image),
              reward(4, cost === 'refused' ? cost : 6000, image),
              reward(5, 9000, image),
            ],
          };
          for (const group of [alone, brand]) {
            const row = rowModel({
              group,
              choice: defaultChoice(group, goal),
              balance,
              blocked: false,
              goal,
              held: [],
            });
            out.push(['row', row]);
            if (row.choice) out.push(['choice', row.choice]);
          }
        }
      }
    }
  }
  return out;
}

/** The list around the rows: short or searchable, one kind or several, with more to show or not, or empty. */
function listSamples(): Sample[] {
  const base = { query: '', sort: 'afford' as const, kind: '' };
  // An empty catalogue: the list says so.
  const empty = { ...base, count: 0, total: 0, brands: 0, kinds: false, filterable: false, shown: 0, visible: 0 };
  const out: Sample[] = [['list', listModel({ ...empty, available: 0 })]];
  for (const total of [3, 20]) {
    for (const brands of [total, total - 2]) {
      for (const kinds of [false, true]) {
        const input = { ...base, count: 3, total, brands, kinds, filterable: total > 8, shown: total, visible: 3 };
        for (const available of [3, 20]) out.push(['list', listModel({ ...input, available })]);
      }
    }
  }
  return out;
}

/** The goal: reached, on its way, its balance unknown, no longer offered, held back; or the earning figure alone. */
function goalSamples(): Sample[] {
  const out: Sample[] = [];
  for (const [goalReward, points] of [
    [null, 1000],
    [reward(3, 500, 'one'), 1000],
    [reward(3, 5000, 'one'), 1000],
    [reward(3, 5000, 'one'), null],
  ] as const) {
    for (const history of [samples, []]) {
      for (const blocked of [null, 'wait']) {
        const input = {
          goal: goalOf(3),
          account: 'a',
          rewards: goalReward ? [goalReward] : [],
          points,
          samples: history,
          blocked,
          now: NOW,
        };
        out.push(['goal', goalModel(input).model]);
      }
    }
  }
  const noGoal = { goal: null, account: 'a', rewards: null, points: 1000, samples, blocked: null, now: NOW };
  out.push(['goal', goalModel(noGoal).model]);
  return out;
}

/** Every model sampled for each part. */
function sampleModels(): Sample[] {
  return [
    ['prompt-page', {}],
    ['page', { busy: 'false' }],
    ['status', syncStatusModel(false)],
    ['prompt', promptModel(false, false)],
    ...headerSamples(),
    ...rowSamples(),
    ...listSamples(),
    ...goalSamples(),
  ];
}

function render(part: PartName, model: Model): string {
  const m = markers(model) as never;
  const views: Record<PartName, () => VNode> = {
    'prompt-page': () => <PromptLayout header={slot()}>{slot()}</PromptLayout>,
    page: () => (
      // aria-busy takes its text from the model ("true" / "false"), where Preact is given a boolean.
      <PageLayout header={slot()} busy={(m as { busy: boolean }).busy} inert={false}>
        {slot()}
      </PageLayout>
    ),
    // The questions line is a part of its own, in a slot: present or not, it adds no header shape.
    header: () => <HeaderView m={m} questionsSlot={slot('questions')} />,
    questions: () => <ProfileLine m={m} />,
    prompt: () => <PromptView m={m} />,
    goal: () => <GoalPanelView m={m} />,
    status: () => <SyncStatus m={m} />,
    list: () => <ListView m={m}>{slot()}</ListView>,
    row: () => <RowView m={m} choiceSlot={slot('choice')} />,
    choice: () => <ValueSelect m={m} />,
  };
  return renderToStaticMarkup(views[part]());
}

/** `<template>` elements for popup.html: one per part and shape. */
export function renderTemplates(): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [part, model] of sampleModels()) {
    const shape = shapeOf(shapeModel(part, model));
    if (seen.has(`${part} ${shape}`)) continue;
    seen.add(`${part} ${shape}`);
    out.push(`<template data-part="${part}" data-shape="${shape}">${render(part, model)}</template>`);
  }
  return out.join('\n');
}
