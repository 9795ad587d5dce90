/** Endpoints 5–7: redemption history, available rewards, and redeeming. */
import { formatTimestamp } from './clock';
import { failure, isJsonObject, success } from './http-util';
import { nextRedemptionId } from './state';
import type { ApiRequest, ApiResult, Redemption, Reward, SandboxState } from './types';
import { stateId } from './wire-ids';

/** When each redemption this sandbox made was made (machine time): a lagging history shows it only later. */
const madeAt = new WeakMap<Redemption, number>();

/** When `r` was made (machine time), as a lagging history counts it; undefined for one it did not make. */
export const madeAtOf = (r: Redemption): number | undefined => madeAt.get(r);

export function listRedemptions(state: SandboxState): ApiResult {
  const shown = state.historyLagMs
    ? state.redemptions.filter((r) => Date.now() - (madeAt.get(r) ?? 0) >= state.historyLagMs)
    : state.redemptions;
  return onWire(state, success({ redemptions: shown }));
}

export function listRewards(state: SandboxState): ApiResult {
  return onWire(
    state,
    success(
      state.balanceIn === 'rewards' ? { rewards: state.rewards, points: state.balance } : { rewards: state.rewards },
    ),
  );
}

/** The answer with its ids written as this panel writes them (wire-ids.ts). */
function onWire(state: SandboxState, result: ApiResult): ApiResult {
  return state.idsOnWire === 'numbers' ? result : { ...result, wireIds: state.idsOnWire };
}

type IdLookup = { id: number } | { error: ApiResult };

/**
 * The document sends the id in a GET body, which browsers cannot do (design §1), so the query
 * parameter is read first and the body is the fallback.
 */
function rewardIdOf(state: SandboxState, req: ApiRequest): IdLookup {
  const fromQuery = req.query.get('id');
  if (fromQuery !== null) {
    const id = stateId(fromQuery, state.idsOnWire);
    return id !== null ? { id } : { error: failure(400, `Invalid reward id: ${fromQuery}`) };
  }
  if (!req.bodyIsJson) return { error: failure(400, 'Request body is not valid JSON') };
  if (isJsonObject(req.body) && 'id' in req.body) {
    const id = req.body.id;
    return Number.isInteger(id)
      ? { id: id as number }
      : { error: failure(400, `Invalid reward id: ${JSON.stringify(id)}`) };
  }
  return { error: failure(400, 'Missing reward id: send ?id=N or a JSON body {"id": N}') };
}

export function redeem(state: SandboxState, req: ApiRequest, now: Date): ApiResult {
  const lookup = rewardIdOf(state, req);
  if ('error' in lookup) return lookup.error;
  const reward = state.rewards.find((candidate) => candidate.id === lookup.id);
  if (!reward) return failure(404, `Unknown reward: ${lookup.id}`);
  const cost = reward.reward_point_cost;
  if (cost === null) return failure(409, `Reward ${reward.id} has no point cost and cannot be redeemed.`);
  if (state.balance < cost) {
    return failure(402, `Insufficient points: this reward needs ${cost} points and you have ${state.balance}.`);
  }
  state.balance -= cost;
  const made = newRedemption(state, reward, cost, formatTimestamp(now));
  madeAt.set(made, Date.now());
  state.redemptions.push(made);
  return success();
}

function newRedemption(state: SandboxState, reward: Reward, cost: number, timestamp: string): Redemption {
  return {
    id: nextRedemptionId(state),
    cost: reward.cost,
    currency: reward.cost_currency,
    reward_point_cost: cost,
    // Nested rewards carry a null point cost, as in the interface's observed data.
    reward: { ...structuredClone(reward), reward_point_cost: null },
    approved: false,
    processed: false,
    created_at: timestamp,
    updated_at: timestamp,
    failed: false,
    refunded: false,
    partner_status: null,
    failed_reason: null,
    transaction_id: null,
  };
}
