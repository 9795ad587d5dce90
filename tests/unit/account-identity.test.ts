import { describe, expect, it } from 'vitest';
import { evidenceOf, evidenceWanted, sameAccount } from '../../entrypoints/background/session/account-identity';
import type { Redemption } from '../../utils/types';
import { did, rid } from './test-ids';

const PANEL = 'https://panel.example/api';
const key = (token: string, baseUrl = PANEL) => ({ baseUrl, token });
const r = (id: number, reward: number, created_at = '2026-11-20T10:00:00') =>
  ({ id: did(id), reward: { id: rid(reward) }, created_at }) as unknown as Redemption;

const stored = [r(5001, 101), r(5002, 102)];

describe('is the new session the same account?', () => {
  it('another panel never is, whatever its history', () => {
    expect(sameAccount(key('k'), key('k', 'https://other.example'), stored, evidenceOf(stored))).toBe(false);
    expect(sameAccount(null, key('k'), stored, evidenceOf(stored))).toBe(false);
  });

  it('the same key is, unless its own history holds none of the stored redemptions', () => {
    expect(sameAccount(key('k'), key('k'), stored, null)).toBe(true);
    expect(sameAccount(key('k'), key('k'), null, evidenceOf([]))).toBe(true);
    expect(sameAccount(key('k'), key('k'), [], evidenceOf([r(1, 1)]))).toBe(true);
    // One deleted (cancelled) redemption contradicts nothing.
    expect(sameAccount(key('k'), key('k'), stored, evidenceOf([r(5002, 102)]))).toBe(true);
    expect(sameAccount(key('k'), key('k'), stored, evidenceOf([r(9001, 101)]))).toBe(false);
    expect(sameAccount(key('k'), key('k'), stored, evidenceOf([]))).toBe(false);
  });

  it('a new key is only when its history holds every stored redemption, whole, and there is one', () => {
    expect(sameAccount(key('old'), key('new'), stored, evidenceOf([...stored, r(5003, 101)]))).toBe(true);
    expect(sameAccount(key('old'), key('new'), stored, evidenceOf([r(5001, 101)]))).toBe(false);
    expect(sameAccount(key('old'), key('new'), stored, null)).toBe(false);
    expect(sameAccount(key('old'), key('new'), [], evidenceOf(stored))).toBe(false);
    expect(sameAccount(key('old'), key('new'), null, evidenceOf(stored))).toBe(false);
    // The same ids with other rewards or dates are another person's (per-panelist numbering).
    expect(sameAccount(key('old'), key('new'), stored, evidenceOf([r(5001, 102), r(5002, 101)]))).toBe(false);
    expect(
      sameAccount(key('old'), key('new'), stored, evidenceOf([r(5001, 101, '2019-01-01T00:00:00'), r(5002, 102)])),
    ).toBe(false);
  });

  it('the new key’s history is read only where it can decide: the same panel, something stored', () => {
    expect(evidenceWanted(key('old'), key('new'), 3)).toBe(true);
    expect(evidenceWanted(key('k'), key('k'), 1)).toBe(true);
    expect(evidenceWanted(key('old'), key('new'), 0)).toBe(false);
    expect(evidenceWanted(key('old'), key('new', 'https://other.example'), 3)).toBe(false);
    expect(evidenceWanted(null, key('new'), 3)).toBe(false);
  });
});
