import { createContext } from 'preact';
import type { RewardId } from '../../utils/ids';

/** The id of the account's goal reward, or null: one value for every row, without threading it through the list. */
export const GoalContext = createContext<RewardId | null>(null);
