import { defineExtensionMessaging } from '@webext-core/messaging';
import type { AppError } from './errors';
import type { Request } from './message-schemas';
import type { Goal, LedgerEntry, Preferences, SessionInfo } from './storage-items';

/** Every handler answers with a Result, so a failure reaches the page typed, never as a thrown string. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: AppError };

/**
 * The one protocol between the pages and the background. Each message lists its request, whose
 * type is inferred from the schema the background checks it against at the door
 * (message-schemas.ts), and its response. `force` skips the freshness window and goes to the network. Refreshes and writes
 * answer `null`: what they fetched is in storage, which the pages already watch, so the data is
 * not sent twice (at 5,000 rewards a reply carrying it took 0.7 s).
 */
export interface ProtocolMap {
  getSession(): Result<SessionInfo>;
  /** Checks the token with a real API call before storing it. */
  connect(data: Request<'connect'>): Result<SessionInfo>;
  /** Removes the token and every cached panelist data, and ends a sign-in at the panel where it can. */
  disconnect(): Result<Disconnected>;
  refreshRewards(data: Request<'refreshRewards'>): Result<null>;
  /**
   * Redeems once; refused with `busy` while another redemption is pending, and with `unsettled`
   * while an earlier redemption of the same reward has an unknown outcome, unless the panelist
   * confirmed again knowing that (`confirmUnsettled`).
   */
  redeem(data: Request<'redeem'>): Result<LedgerEntry>;
  /** "Check now": reads the history at once to settle an unknown outcome; answers the ledger entry. */
  checkRedemption(): Result<LedgerEntry | null>;
  /** Forgets a finished ledger entry once the panelist has seen its outcome. */
  dismissRedemption(): Result<null>;
  refreshHistory(data: Request<'refreshHistory'>): Result<null>;
  refreshProfile(data: Request<'refreshProfile'>): Result<null>;
  /** Sends only the given variables, in one update. */
  saveValues(data: Request<'saveValues'>): Result<null>;
  deleteValue(data: Request<'deleteValue'>): Result<null>;
  /**
   * Changes the unsaved profile draft of `session`, merged with the stored draft in the background's
   * turn (two pages editing at once both keep their edits); refused once another session is active.
   */
  editDraft(data: Request<'editDraft'>): Result<null>;
  /** The panelist has read the notice that unsaved edits were discarded at a switch. */
  dismissDraftNotice(data: Request<'dismissDraftNotice'>): Result<null>;
  /** The options page showed these new questions to the panelist of `account`: no longer "New". */
  seeQuestions(data: Request<'seeQuestions'>): Result<null>;
  setPreferences(data: Request<'setPreferences'>): Result<Preferences>;
  /**
   * Signs in with the panel's authorization server (OAuth 2.0 code + PKCE) in the browser's sign-in
   * window, checks the token with a real API call and only then stores it. The page asks for the
   * `identity` permission first, inside the click.
   */
  signIn(): Result<SessionInfo>;
  /** Sets the account's goal to a reward of the catalogue; `null` removes it. */
  setGoal(data: Request<'setGoal'>): Result<Goal | null>;
}

/** Disconnect's answer: the session now, and whether the panel could not be told to end the sign-in. */
export type Disconnected = SessionInfo & { revocationFailed?: boolean };

export const { sendMessage, onMessage } = defineExtensionMessaging<ProtocolMap>();
