import { SignIn } from '../options/SignIn';
import { openOptions } from './open-options';
import { promptModel } from './model/prompt-model';
import { PromptView } from './PromptView';

interface Props {
  rejected: boolean;
  /** The rejected session came from sign-in: the way back is signing in again. */
  signedIn?: boolean | undefined;
}

/** Shown instead of data when there is no token, or the server stopped accepting it. */
export function ConnectPrompt({ rejected, signedIn }: Props) {
  return (
    <PromptView
      m={promptModel(rejected, signedIn)}
      signIn={<SignIn buttonClass="btn btn-primary" alertClass="error" short />}
      onConnect={openOptions}
    />
  );
}
