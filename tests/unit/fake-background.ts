import { dismissDraftNotice, editDraft } from '../../entrypoints/background/profile/draft';
import type { AppError } from '../../utils/errors';
import type { Request } from '../../utils/message-schemas';
import type { Result } from '../../utils/messages';

/**
 * A stand-in for the background at the messages boundary, for page component tests:
 *   vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
 * Tests read `background.calls` and set `background.answers[type]`; reset both in beforeEach.
 */
export interface FakeBackground {
  calls: Array<{ type: string; data: unknown }>;
  answers: Record<string, (data: unknown) => Promise<Result<unknown>> | Result<unknown>>;
}

export const background: FakeBackground = { calls: [], answers: {} };

export const fakeMessages = {
  sendMessage: async (type: string, data?: unknown) => {
    background.calls.push({ type, data });
    return background.answers[type]?.(data) ?? draftMessage(type, data) ?? { ok: true, data: null };
  },
};

/**
 * The draft messages served by the background's own code (background/profile/draft.ts), so page tests see
 * the draft the background would store; undefined for any other message.
 */
export function draftMessage(type: string, data: unknown): Promise<Result<unknown>> | undefined {
  const run =
    type === 'editDraft'
      ? editDraft(data as Request<'editDraft'>)
      : type === 'dismissDraftNotice'
        ? dismissDraftNotice(data as Request<'dismissDraftNotice'>)
        : null;
  return run?.then(
    () => ({ ok: true as const, data: null }),
    (thrown: { error: AppError }) => ({ ok: false as const, error: thrown.error }),
  );
}
