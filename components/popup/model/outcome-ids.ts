/** Ids other parts point at, apart from the lazily loaded outcome card so that they stay in the first chunk. */
export const OUTCOME_ID = 'redeem-outcome';
/** The pending banner's sentence; every disabled Redeem button points here instead of a caption of its own. */
export const REDEEM_WAIT_ID = 'redeem-wait';
