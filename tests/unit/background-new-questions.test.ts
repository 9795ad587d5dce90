// @vitest-environment node
/**
 * New profile questions in the background, against two sandboxes over real HTTP: a question the panel adds is
 * recorded as new and, when the panelist asked for it, told once — never on a session's first read,
 * never twice (also after a worker restart), never for another account. The popup view counts the
 * open questions, and the record goes with the account.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { StaleSession } from '../../entrypoints/background/store/store';
import { onProfile, questionsIdle, watchNewQuestions } from '../../entrypoints/background/profile/new-questions';
import { clickTarget, notificationsIdle, watchNotifications } from '../../entrypoints/background/notify/notifications';
import { connect, disconnect } from '../../entrypoints/background/session/session';
import { refreshProfile } from '../../entrypoints/background/sync/sync';
import {
  popupViewItem,
  preferencesItem,
  questionsItem,
  sessionItem,
  type Preferences,
} from '../../utils/storage-items';
import type { VariableDefinition } from '../../utils/types';
import type { Sandbox } from '../sandbox/server';
import { SEED_A } from './accounts';
import {
  activeSessionId,
  closeSandboxes,
  deliver,
  fakeNotifications,
  type Shown,
  startTwoAccounts,
} from './background-helpers';
import { installI18n } from './i18n-setup';

let a: Sandbox;
let b: Sandbox;
let stop: Array<() => void> = [];
let created: Shown[];

const TOLD: Partial<Preferences> = { notify: true, notifyOn: ['question'] };
const PETS: VariableDefinition = {
  id: 190,
  name: 'PETS',
  text: 'Do you have pets at home?',
  uuid: 'pets-uuid',
  type: 'radio',
  writable: true,
  options: [
    { id: 191, name: 'YES', text: 'Yes', exclusive: false },
    { id: 192, name: 'NO', text: 'No', exclusive: false },
  ],
};

const idle = async () => {
  await questionsIdle();
  await notificationsIdle();
};

/** A worker start: the listeners index.ts registers, with everything else only in storage. */
function startWorker(): void {
  stop.forEach((s) => s());
  stop = [watchNotifications(), watchNewQuestions(), registerHandlers()];
}

/** connect() warms the profile without waiting: that read is the session's first. Joined, not timed. */
async function connectTo(sandbox: Sandbox): Promise<void> {
  await connect(sandbox.url, sandbox.token);
  await refreshProfile(false);
  await idle();
}

async function refresh(): Promise<void> {
  await refreshProfile(true);
  await idle();
}

const addQuestion = (sandbox: Sandbox, def: VariableDefinition = PETS) =>
  sandbox.state.variables.push(structuredClone(def));
const fresh = async () => (await questionsItem.getValue())?.fresh.map((q) => q.name);

beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 2_000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  installI18n('en');
  a.reset();
  b.reset();
  created = fakeNotifications();
  startWorker();
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30, ...TOLD });
  await connectTo(a);
});
afterEach(() => {
  stop.forEach((s) => s());
  stop = [];
  vi.restoreAllMocks();
});

describe('new profile questions', () => {
  it('the first read after connecting only records; the popup view counts the open questions', async () => {
    const record = await questionsItem.getValue();
    expect(record?.account).toBe(`${a.url}|${'token-account-a'.slice(-4)}`);
    expect(record?.known).toEqual(SEED_A.variables.map((v) => v.name));
    expect(record?.fresh).toEqual([]);
    expect(created).toEqual([]);
    // The seed answers 4 of its 6 writable questions; the postal code is the first open one.
    expect((await popupViewItem.getValue())?.profile).toMatchObject({ open: 2, total: 6, first: 'POSTAL_CODE' });
  });

  it('a question the panel adds is new and told once, in the panelist’s words; it counts as open at once', async () => {
    addQuestion(a);
    await refresh();
    expect(await fresh()).toEqual(['PETS']);
    expect(created).toEqual([
      {
        id: 'question:PETS',
        title: 'New profile question',
        message: 'Your panel added a question: Do you have pets at home?',
      },
    ]);
    expect((await popupViewItem.getValue())?.profile).toMatchObject({ open: 3, total: 7 });
    await refresh();
    expect(created).toHaveLength(1);
    // Its click opens the options page at that question.
    expect(clickTarget('question:PETS')).toBe('#answer-PETS');
  });

  it('is not told again after the worker restarts, and the next new question is', async () => {
    addQuestion(a);
    await refresh();
    startWorker();
    await refresh();
    expect(created.map((c) => c.id)).toEqual(['question:PETS']);
    addQuestion(a, { ...PETS, id: 195, name: 'CAR', text: 'Which car do you drive?', type: 'text', options: [] });
    await refresh();
    expect(created.map((c) => c.id)).toEqual(['question:PETS', 'question:CAR']);
  });

  it('is told only to a panelist who turned this kind on (off by default), yet is marked new either way', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    addQuestion(a);
    await refresh();
    expect(created).toEqual([]);
    expect(await fresh()).toEqual(['PETS']);
    // Turned on afterwards, a question already found is not told late.
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, ...TOLD });
    await refresh();
    expect(created).toEqual([]);
  });

  it('a question added while not connected is not told on the first read of the next connection', async () => {
    await disconnect();
    expect(await questionsItem.getValue()).toBeNull();
    addQuestion(a);
    await connectTo(a);
    expect(created).toEqual([]);
    expect(await fresh()).toEqual([]);
  });

  it('never for another account: a late read of the one before is dropped, and the next account starts over', async () => {
    addQuestion(a);
    // A's read is slow; B connects meanwhile.
    await fetch(`${a.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'GET', path: '/v1/panel/variables/meta', delayMs: 300 }),
    });
    const sidA = (await sessionItem.getValue()).id!;
    const late = refreshProfile(true).catch(() => undefined);
    addQuestion(b);
    await connectTo(b);
    await late;
    // Even handed straight to the record keeper, A's read is refused now.
    await expect(
      onProfile(sidA, { definitions: [...a.state.variables, { ...PETS, name: 'LATE' }], values: {} }),
    ).rejects.toBeInstanceOf(StaleSession);
    await idle();
    expect(created).toEqual([]);
    const record = await questionsItem.getValue();
    expect(record?.account).toBe(`${b.url}|${'token-account-b'.slice(-4)}`);
    expect(record?.fresh).toEqual([]);
    expect((await sessionItem.getValue()).baseUrl).toBe(b.url);
  });

  it('seen on the options page, a question is no longer new; another account’s page changes nothing', async () => {
    addQuestion(a);
    await refresh();
    const account = (await questionsItem.getValue())!.account;
    expect(await deliver('seeQuestions', { account: 'https://other.example|zzzz', names: ['PETS'] })).toEqual({
      ok: true,
      data: null,
    });
    expect(await fresh()).toEqual(['PETS']);
    expect(await deliver('seeQuestions', { account, names: ['PETS'] })).toEqual({ ok: true, data: null });
    expect(await fresh()).toEqual([]);
    // Refused at the door, before the handler: a list of names is what the page sends.
    expect(await deliver('seeQuestions', { account, names: 'PETS' })).toMatchObject({
      ok: false,
      error: { kind: 'bad_request', field: 'names' },
    });
  });

  it('answered, a question is no longer new', async () => {
    addQuestion(a);
    await refresh();
    await deliver('saveValues', { session: await activeSessionId(), values: { PETS: 192 } });
    await idle();
    expect(await fresh()).toEqual([]);
    expect((await popupViewItem.getValue())?.profile).toMatchObject({ open: 2, total: 7 });
  });
});
