/** The part of oidc-provider (which ships no types) that strict-oauth.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    oidc: { params?: Record<string, unknown> };
  }
  export interface Client {
    grantTypeAllowed(type: string): boolean;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }
  export interface InteractionDetails {
    uid: string;
    grantId?: string;
    session?: { accountId: string };
    params: Record<string, unknown>;
    prompt: { name: string; details: Record<string, unknown> };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
