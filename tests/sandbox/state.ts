/** The in-memory panelist state: loading the seed, resetting in place, and patching by tests. */
import { readFileSync } from 'node:fs';
import type { VariableDefinition } from '../../utils/types';
import type { SandboxSeed, SandboxState } from './types';

const SEED_FILE = new URL('./seed.json', import.meta.url);

/** Read from disk on each call so every caller gets its own copy. */
export function loadDefaultSeed(): SandboxSeed {
  return JSON.parse(readFileSync(SEED_FILE, 'utf8')) as SandboxSeed;
}

export function stateFromSeed(seed: SandboxSeed): SandboxState {
  // A deep copy: a test mutating the state must never alter the seed that reset() restores.
  const copy = structuredClone(seed);
  return {
    balance: copy.balance,
    rewards: copy.rewards,
    variables: copy.variables,
    values: copy.values,
    redemptions: copy.redemptions,
    valuesShape: copy.valuesShape ?? 'records',
    balanceIn: copy.balanceIn ?? 'rewards',
    validators: copy.validators ?? true,
    movedTo: copy.movedTo ?? null,
    idsOnWire: copy.idsOnWire ?? 'numbers',
    historyLagMs: copy.historyLagMs ?? 0,
  };
}

/**
 * Restores the seed into the existing object, because tests hold `sandbox.state` by reference
 * and must keep seeing the live state after a reset.
 */
export function resetState(state: SandboxState, seed: SandboxSeed): void {
  Object.assign(state, stateFromSeed(seed));
}

export function variableByName(state: SandboxState, name: string): VariableDefinition | undefined {
  return state.variables.find((variable) => variable.name === name);
}

export function nextRedemptionId(state: SandboxState): number {
  return state.redemptions.reduce((max, redemption) => Math.max(max, redemption.id), 0) + 1;
}
