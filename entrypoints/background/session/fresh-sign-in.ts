import { defineItem } from '../../../utils/storage-item';

/**
 * Set by Disconnect, in the write that ends the session, and taken by the sign-in that follows:
 * that sign-in asks the sign-in server to ask for the password again (utils/sign-in-server.ts), so
 * on a shared computer the next person is not signed in as the one who disconnected because the
 * server still remembers them. Not session data: it outlives the session it ends.
 */
export const freshSignInItem = defineItem<boolean>('sign-in:fresh', false);
