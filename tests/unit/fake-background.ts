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
    return background.answers[type]?.(data) ?? { ok: true, data: null };
  },
};
