/** The part of oidc-provider (which ships no types) that openid-provider.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    oidc?: { params?: Record<string, unknown> };
    get(header: string): string;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface Token {
    jti: string;
    grantId: string;
    consumed?: unknown;
    destroy(): Promise<void>;
  }
  interface TokenModel {
    find(value: string): Promise<Token | undefined>;
    revokeByGrantId(grantId: string): Promise<void>;
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
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
      adapter: { destroy(id: string): Promise<void> };
    };
    AccessToken: TokenModel;
    RefreshToken: TokenModel;
    AuthorizationCode: TokenModel;
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
