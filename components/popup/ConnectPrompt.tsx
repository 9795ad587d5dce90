import { openOptions } from './open-options';

interface Props {
  rejected: boolean;
}

/** Shown instead of data when there is no token, or the server stopped accepting it. */
export function ConnectPrompt({ rejected }: Props) {
  return (
    <section class="prompt" aria-labelledby="connect-title">
      <h2 id="connect-title">{rejected ? 'Please reconnect' : 'Not connected'}</h2>
      <p>
        {rejected
          ? 'Your panel no longer accepts the saved access token. Reconnect to see your points and redeem rewards.'
          : 'Connect your panel account to see your points and redeem rewards.'}
      </p>
      <button type="button" class="btn btn-primary" onClick={openOptions}>
        {rejected ? 'Reconnect your account' : 'Connect your account'}
      </button>
    </section>
  );
}
