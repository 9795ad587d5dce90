import type { ComponentChildren } from 'preact';
import type { PromptModel } from './model/prompt-model';

/**
 * The prompt to connect, from its model alone: the first frame's template renders it too, so the two cannot differ.
 * `signIn` is the sign-in button, where the build offers sign-in.
 */
export function PromptView({
  m,
  signIn,
  onConnect,
}: {
  m: PromptModel;
  signIn?: ComponentChildren;
  onConnect?: () => void;
}) {
  return (
    <section class="prompt" aria-labelledby="connect-title">
      <h2 id="connect-title">{m.title}</h2>
      <p>{m.text}</p>
      {m.signIn && signIn}
      {m.connect !== null && (
        <button type="button" class="btn btn-primary" onClick={onConnect}>
          {m.connect}
        </button>
      )}
      {m.key && (
        <a class="link small" href={m.key.href} target="_blank" rel="noopener">
          {m.key.text}
        </a>
      )}
    </section>
  );
}
