// One HTTP request as the service knows it: made once by the edge (src/http/edge.ts) and handed
// to every layer that needs it (the quota, the REST facade, GraphQL's context, the access log,
// metrics and traces), so nothing is looked up, parsed or verified twice and nothing is found
// again by the Request (no WeakMaps, no AsyncLocalStorage). What the answer carries is collected
// on it as it becomes known.
import type { Logger } from 'pino';
import { verifyDashboardToken, type DashboardToken } from './auth/dashboardToken';
import { storableIp } from './auth/keyUsage';
import type { ApiKeys, PresentedKey, VerifiedKey } from './auth/verifyApiKey';
import { logger } from './platform/logger';

export interface RequestRecordInit {
  request: Request;
  url: URL;
  id: string;
  clientIp: string;
  /** The route as a template (`/affiliate/orders/{orderId}`), for logs, metrics and traces. */
  route: string | null;
  /** The headers as Node's HTTP server read them, when it did (the fetch adapter drops empty ones). */
  rawHeaders?: Readonly<Record<string, unknown>>;
  /** The app's key verification. */
  keys: ApiKeys;
}

export class RequestRecord {
  /** The request as its client sent it. */
  readonly request: Request;
  readonly url: URL;
  /** The caller's X-Request-Id when sane, else a fresh one; echoed on the answer. */
  readonly id: string;
  /** The address the quota counts against (src/http/clientIp.ts). */
  readonly clientIp: string;
  readonly route: string | null;
  /**
   * When this replica received the request: the record is the edge's first act, before any await,
   * so a request waiting behind another's work was still received before it.
   */
  readonly receivedAt = new Date();
  /** Headers the answer carries, collected as they are known (request id, quota fields). */
  readonly answerHeaders: Record<string, string>;
  private readonly rawHeaders?: Readonly<Record<string, unknown>>;
  private readonly keys: ApiKeys;
  private controller?: AbortController;
  private presented?: PresentedKey | null;
  private verifiedKey?: Promise<VerifiedKey | null>;
  private verifiedToken?: Promise<DashboardToken>;
  private childLog?: Logger;

  constructor(init: RequestRecordInit) {
    this.request = init.request;
    this.url = init.url;
    this.id = init.id;
    this.clientIp = init.clientIp;
    this.route = init.route;
    this.rawHeaders = init.rawHeaders;
    this.keys = init.keys;
    this.answerHeaders = { 'X-Request-Id': init.id };
  }

  /**
   * Fires at the request's deadline or when its client goes away (`stop`). Made on first use:
   * work that nothing can stop (the redirect) never pays for one.
   */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  /** Stops whatever listens to `signal`. */
  stop(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /** Whether a header was sent at all, even empty. */
  wasSent(name: string): boolean {
    return (
      this.request.headers.has(name) || (this.rawHeaders !== undefined && name in this.rawHeaders)
    );
  }

  /** The client address as stored (key usage, audit trails): an IP literal, else null. */
  get storableClientIp(): string | null {
    return storableIp(this.clientIp);
  }

  /** The `x-api-key` as read (parsed and hashed) once, or null when none was sent. */
  get presentedKey(): PresentedKey | null {
    if (this.presented === undefined) {
      const raw = this.request.headers.get('x-api-key');
      this.presented = raw === null ? null : this.keys.present(raw);
    }
    return this.presented;
  }

  /** What the quota may know of the presented key before any lookup; null when none was sent. */
  keyPrecheck() {
    const presented = this.presentedKey;
    return presented && this.keys.precheck(presented);
  }

  /** The verified `x-api-key`, or null when it is absent or invalid; verified once. */
  apiKey(): Promise<VerifiedKey | null> {
    const presented = this.presentedKey;
    this.verifiedKey ??= presented
      ? this.keys.verify(presented, { clientIp: this.storableClientIp })
      : Promise.resolve(null);
    return this.verifiedKey;
  }

  /** The dashboard JWT (`x-api-token`) as checked; checked once. */
  dashboardToken(): Promise<DashboardToken> {
    this.verifiedToken ??= verifyDashboardToken(this.request.headers.get('x-api-token'));
    return this.verifiedToken;
  }

  /** Who the request was verified as, for the access log: ids only, nothing looked up for it. */
  async verifiedIdentity(): Promise<{ keyId?: string; userId?: string }> {
    const key = await this.verifiedKey?.catch(() => null);
    if (key) return { keyId: key.id, userId: key.ownerId };
    const token = await this.verifiedToken?.catch(() => undefined);
    return token && 'userId' in token ? { userId: token.userId } : {};
  }

  /** The service's logger with this request's id on every line. */
  get log(): Logger {
    this.childLog ??= logger.child({ requestId: this.id });
    return this.childLog;
  }
}
