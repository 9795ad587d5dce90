import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { checkRequest } from '../../utils/message-schemas';
import { onMessage, type ProtocolMap, type Result } from '../../utils/messages';
import { dismissDraftNotice, editDraft } from './profile/draft';
import { setGoal } from './goal';
import { seeQuestions } from './profile/new-questions';
import { deleteValue, saveValues } from './profile/profile';
import { setPreferences } from './preferences';
import { checkRedemption, dismissRedemption, openEntries, redeem } from './redemption/service';
import { asResult } from './result';
import { isOwnPage } from './sender';
import { connect, disconnect, getSession } from './session/session';
import { signIn } from './session/sign-in';
import { refreshForPage, refreshProfile } from './sync/sync';

type Handlers = {
  [K in keyof ProtocolMap]: (
    data: Parameters<ProtocolMap[K]>[0],
  ) => Promise<ProtocolMap[K] extends (...a: never[]) => Result<infer T> ? T : never>;
};

/** The outcome is in storage; the reply only says it is there. */
const done = (): null => null;

/** The whole protocol in one table: each message maps to the background function that serves it. */
export const handlers: Handlers = {
  getSession: () => getSession(),
  connect: (d) => connect(d.baseUrl, d.token),
  disconnect: () => disconnect(),
  refreshRewards: (d) => refreshForPage('rewards', d.force).then(done),
  redeem: (d) => redeem(d),
  dismissRedemption: () => dismissRedemption(),
  checkRedemption: () => checkRedemption(),
  // An unsettled redemption outcome skips the freshness window: the history is what settles it.
  refreshHistory: async (d) => refreshForPage('history', d.force || (await openEntries()).length > 0).then(done),
  refreshProfile: (d) => refreshProfile(d.force).then(done),
  saveValues: (d) => saveValues(d.session, d.values).then(done),
  deleteValue: (d) => deleteValue(d.session, d.name).then(done),
  editDraft: (d) => editDraft(d).then(done),
  dismissDraftNotice: (d) => dismissDraftNotice(d).then(done),
  seeQuestions: (d) => seeQuestions(d.account, d.names).then(done),
  setPreferences: (d) => setPreferences(d),
  signIn: () => signIn(),
  setGoal: (d) => setGoal(d.rewardId),
};

const FORBIDDEN = appError('forbidden', t('errForbidden'));

/**
 * Answers one message at the door: a sender that is not one of the extension's own pages is
 * refused, and so is data not of the message's shape (message-schemas.ts), before its handler runs,
 * so nothing is read, written or sent for it.
 */
function dispatch(
  type: keyof ProtocolMap,
  sender: Parameters<typeof isOwnPage>[0],
  data: unknown,
): Promise<Result<unknown>> {
  if (!isOwnPage(sender)) return Promise.resolve({ ok: false, error: FORBIDDEN });
  const checked = checkRequest(type, data);
  if (!checked.ok) {
    const field = checked.field || t('badRequestWhole');
    return Promise.resolve({
      ok: false,
      error: appError(
        'bad_request',
        t('errBadRequest', type, field, checked.expected),
        checked.field ? { field: checked.field } : {},
      ),
    });
  }
  const handler = handlers[type] as (data: unknown) => Promise<unknown>;
  return asResult(() => handler(checked.data));
}

/** Registers every handler; returns a function that removes them (tests re-register). */
export function registerHandlers(): () => void {
  const removers = (Object.keys(handlers) as Array<keyof ProtocolMap>).map((type) =>
    onMessage(type, (message) => dispatch(type, message.sender, message.data) as never),
  );
  return () => removers.forEach((remove) => remove());
}
