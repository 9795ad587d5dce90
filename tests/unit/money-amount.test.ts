/**
 * Whether an amount is money its currency can mean (utils/format.ts `isMoneyAmount`), by each
 * currency's minor unit, answered alike however often and in whatever order currencies are asked
 * (each currency's minor unit is asked of Intl once). Breakage it was seen to fail on: one answer
 * kept for every currency (the first asked, USD's 2 digits, then spoke for JPY and BHD).
 */
import { describe, expect, it } from 'vitest';
import { isMoneyAmount, MAX_MINOR_UNITS } from '../../utils/format';

describe('money amounts by their currency’s minor unit', () => {
  it('allow below 10^15 minor units of each currency, asked again and in any order', () => {
    for (let round = 0; round < 2; round += 1) {
      for (const [currency, digits] of [
        ['USD', 2],
        ['JPY', 0],
        ['BHD', 3],
        ['dollars', 0],
        ['', 0],
      ] as const) {
        const limit = MAX_MINOR_UNITS / 10 ** digits;
        expect(isMoneyAmount(limit, currency), `${currency} ${limit}`).toBe(false);
        expect(isMoneyAmount(limit / 10, currency), `${currency} ${limit / 10}`).toBe(true);
        expect(isMoneyAmount(-1, currency)).toBe(false);
      }
    }
  });
});
