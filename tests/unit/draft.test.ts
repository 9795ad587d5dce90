// @vitest-environment node
/**
 * The profile draft is written by the background only, for the session the
 * page's edit was typed under, merged in the writer's turn.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { dismissDraftNotice, editDraft } from '../../entrypoints/background/profile/draft';
import { switchSession } from '../../entrypoints/background/store/store';
import { draftDiscardedItem, profileDraftItem, sessionItem } from '../../utils/storage-items';

async function startSession(): Promise<string> {
  const session = await switchSession([], () => ({
    next: {
      credentials: { baseUrl: 'https://panel.example', token: 'key-1234' },
      session: {
        connected: true,
        baseUrl: 'https://panel.example',
        origin: 'https://panel.example',
        tokenHint: '1234',
        rejected: false,
      },
    },
  }));
  return session.id!;
}

let sid: string;
beforeEach(async () => {
  fakeBrowser.reset();
  sid = await startSession();
});

describe('the profile draft', () => {
  it('takes each edit merged with what is stored, and forgets a name sent as null', async () => {
    await editDraft({ session: sid, changes: { FIRST_NAME: 'Jo', HOBBIES: [31] } });
    await editDraft({ session: sid, changes: { FIRST_NAME: null, BIRTH_DATE: '1990-01-02' } });
    expect(await profileDraftItem.getValue()).toEqual({ HOBBIES: [31], BIRTH_DATE: '1990-01-02' });
    await editDraft({ session: sid, changes: { POSTAL_CODE: '10115' }, clear: true });
    expect(await profileDraftItem.getValue()).toEqual({ POSTAL_CODE: '10115' });
  });

  it('keeps both of two pages’ edits sent at the same moment', async () => {
    await Promise.all([
      editDraft({ session: sid, changes: { FIRST_NAME: 'Jo' } }),
      editDraft({ session: sid, changes: { POSTAL_CODE: '10115' } }),
    ]);
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Jo', POSTAL_CODE: '10115' });
  });

  it('refuses a keystroke that lands after a switch: the next account’s draft never gets it', async () => {
    const next = await startSession();
    await editDraft({ session: next, changes: { FIRST_NAME: 'Sam' } });
    await expect(editDraft({ session: sid, changes: { FIRST_NAME: 'Jo', SECRET: 'a' } })).rejects.toMatchObject({
      error: { kind: 'not_connected' },
    });
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Sam' });
  });

  it('refuses an edit after disconnecting: nothing of it is stored', async () => {
    await switchSession([], () => ({ next: null }));
    await expect(editDraft({ session: sid, changes: { FIRST_NAME: 'Jo' } })).rejects.toMatchObject({
      error: { kind: 'not_connected' },
    });
    expect(await fakeBrowser.storage.local.get(profileDraftItem.key)).toEqual({});
    expect((await sessionItem.getValue()).connected).toBe(false);
  });

  it('removes the discarded-edits notice for its own session only', async () => {
    const next = await startSession();
    await draftDiscardedItem.setValue({ count: 2, at: 1 });
    await expect(dismissDraftNotice({ session: sid })).rejects.toMatchObject({ error: { kind: 'not_connected' } });
    expect(await draftDiscardedItem.getValue()).toEqual({ count: 2, at: 1 });
    await dismissDraftNotice({ session: next });
    expect(await draftDiscardedItem.getValue()).toBeNull();
  });
});
