// A small typed client of the REST API: openapi-fetch over the types that openapi-typescript
// generates from GET /openapi.json (client/src/openapi.gen.ts, `npm run client:generate`), plus
// what the contract asks of a client: both documented shapes of a short URL and of an error body,
// Retry-After on 429 (bounded), page iteration over the `meta` / `pagination` envelopes, and a
// failure to reach the API as the client's own error.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths, WebhookBodies } from './openapi.gen';

export type { components, paths, webhooks } from './openapi.gen';
export type Schemas = components['schemas'];
export type ShortUrl = Schemas['ShortUrl'];
export type PageInfo = Schemas['PageMeta'] | Schemas['Pagination'];

// ---- errors -------------------------------------------------------------------------------------

/** An error answer, read from either documented body shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** `code` of `{ success: false, message, code }`; for `{ message, error, statusCode }` bodies, derived from the status. */
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * No answer came: the API could not be reached (refused, DNS, TLS, connection lost). `status` is 0,
 * `code` NETWORK_ERROR, and `cause` the error fetch threw.
 */
export class NetworkError extends ApiError {
  constructor(url: string, cause: unknown) {
    super(0, 'NETWORK_ERROR', `could not reach ${url}: ${reasonOf(cause)}`, undefined, undefined);
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

// Errors are read by shape, not `instanceof Error`: fetch's may come from another realm.
const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;

/** What went wrong under fetch's own "fetch failed": e.g. "connect ECONNREFUSED 127.0.0.1:4000". */
function reasonOf(error: unknown): string {
  const cause = field(field(error, 'cause'), 'message') ?? field(error, 'message');
  return typeof cause === 'string' && cause ? cause : String(error);
}

/** A fetch that answers NetworkError where fetch throws; an abort stays the caller's own. */
export function reportingFetch(
  baseFetch: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await baseFetch(request);
    } catch (error) {
      const name = field(error, 'name');
      if (name === 'AbortError' || name === 'TimeoutError') throw error;
      throw new NetworkError(new URL(request.url).origin, error);
    }
  };
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
  504: 'REQUEST_TIMEOUT',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The ApiError of an error answer: `{ success: false, message, code }` or `{ message, error, statusCode }`. */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  const requestId =
    (isRecord(body) && typeof body.requestId === 'string' ? body.requestId : undefined) ??
    response.headers.get('X-Request-Id') ??
    undefined;
  const fallbackCode = CODE_BY_STATUS[response.status] ?? `HTTP_${response.status}`;
  if (isRecord(body) && typeof body.message === 'string') {
    const code = typeof body.code === 'string' ? body.code : fallbackCode;
    return new ApiError(response.status, code, body.message, requestId, body);
  }
  return new ApiError(
    response.status,
    fallbackCode,
    response.statusText || fallbackCode,
    requestId,
    body,
  );
}

// ---- short URLs ---------------------------------------------------------------------------------

/** A short URL from either documented answer: `{ data: ShortUrl }` or the ShortUrl itself. */
export function shortUrlOf(body: { data: ShortUrl } | ShortUrl): ShortUrl {
  return 'data' in body && isRecord(body.data) ? body.data : (body as ShortUrl);
}

// ---- retries ------------------------------------------------------------------------------------

export interface RetryOptions {
  /** Retries after a 429, at most. Default 3. */
  maxRetries?: number;
  /** The longest wait the client accepts; a longer Retry-After gives up at once. Default 60 s. */
  maxDelayMs?: number;
  /** How to wait (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A fetch that waits out 429 answers as Retry-After says, a bounded number of times. */
export function retryingFetch(
  baseFetch: (request: Request) => Promise<Response>,
  { maxRetries = 3, maxDelayMs = 60_000, sleep = defaultSleep }: RetryOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A 429 is answered before the request runs, so sending it again is safe, POST included.
      const response = await baseFetch(request.clone());
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const delay = retryAfterMs(response.headers.get('Retry-After')) ?? 1000 * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- the client ---------------------------------------------------------------------------------

type GetPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof paths];
type GetOperation<P extends GetPath> = paths[P]['get'];
/** The query parameters of a GET route. */
export type QueryOf<P extends GetPath> = NonNullable<GetOperation<P>['parameters']['query']>;
/** The path parameters of a GET route. */
export type PathParamsOf<P extends GetPath> = GetOperation<P>['parameters']['path'];
/** The 200 body of a GET route. */
export type BodyOf<P extends GetPath> = GetOperation<P>['responses'][200] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

/** The GET routes whose body is a `meta` or `pagination` envelope. */
export type PagedPath = {
  [P in GetPath]: BodyOf<P> extends { data: unknown[]; meta: Schemas['PageMeta'] }
    ? P
    : BodyOf<P> extends { data: unknown[]; pagination: Schemas['Pagination'] }
      ? P
      : never;
}[GetPath];
/** An item of a paged route's `data`. */
export type ItemOf<P extends PagedPath> = BodyOf<P> extends { data: (infer Item)[] } ? Item : never;

export interface ClientOptions extends RetryOptions {
  /** The API's base address, e.g. https://api.example.com */
  baseUrl: string;
  /** Sent as x-api-key. */
  apiKey: string;
  /** Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The body of `POST /affiliate/shortener/url`. */
export type ShortUrlRequest = NonNullable<
  paths['/affiliate/shortener/url']['post']['requestBody']
>['content']['application/json'];

// Declared rather than inferred: an inferred type would be emitted as `import("openapi-fetch")`,
// which TypeScript 7 reads as openapi-fetch's CommonJS `export =` function, not its module.
export interface ApiClient {
  /** The openapi-fetch client itself, for anything else. */
  raw: Client<paths>;
  /** GET a route: its typed 200 body, or an ApiError. */
  get<P extends GetPath>(
    path: P,
    params?: { query?: QueryOf<P>; path?: PathParamsOf<P> },
  ): Promise<BodyOf<P>>;
  /** Every page of a `meta` / `pagination` list, from `query.page` (default 1) to the last. */
  pages<P extends PagedPath>(
    path: P,
    query?: QueryOf<P>,
  ): AsyncGenerator<BodyOf<P>, void, undefined>;
  /** Every item of a `meta` / `pagination` list, page after page. */
  items<P extends PagedPath>(
    path: P,
    query?: QueryOf<P>,
  ): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** One of the affiliate's short links, whichever documented shape the server answers. */
  shortUrl(urlCode: string): Promise<ShortUrl>;
  /**
   * Makes (or finds) the affiliate's short link. `created` is false when the same request was
   * made before (200 instead of 201).
   */
  createShortUrl(
    body: ShortUrlRequest,
    options?: { idempotencyKey?: string },
  ): Promise<{ shortUrl: ShortUrl; created: boolean }>;
}

export function createApiClient(options: ClientOptions): ApiClient {
  const baseFetch = options.fetch ?? ((request: Request) => fetch(request));
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { 'x-api-key': options.apiKey },
    fetch: retryingFetch(reportingFetch(baseFetch), options),
    // The document declares list parameters comma-separated (the API takes repeats too).
    querySerializer: { array: { style: 'form', explode: false } },
  });

  async function get<P extends GetPath>(
    path: P,
    params: { query?: QueryOf<P>; path?: PathParamsOf<P> } = {},
  ): Promise<BodyOf<P>> {
    // openapi-fetch's overloads cannot follow a generic path; the signature above types the call.
    const answer = await (raw.GET as (path: string, init: object) => Promise<Answer>)(path, {
      params,
    });
    if (answer.error !== undefined || !answer.response.ok) {
      throw apiErrorOf(answer.response, answer.error);
    }
    return answer.data as BodyOf<P>;
  }

  async function* pages<P extends PagedPath>(
    path: P,
    query: QueryOf<P> = {} as QueryOf<P>,
  ): AsyncGenerator<BodyOf<P>, void, undefined> {
    let page = (query as { page?: number }).page ?? 1;
    for (;;) {
      const body = await get(path, { query: { ...query, page } as QueryOf<P> });
      yield body;
      const info = pageInfoOf(body);
      if (info.page >= info.totalPages || (body as { data: unknown[] }).data.length === 0) return;
      page = info.page + 1;
    }
  }

  async function* items<P extends PagedPath>(
    path: P,
    query?: QueryOf<P>,
  ): AsyncGenerator<ItemOf<P>, void, undefined> {
    for await (const body of pages(path, query)) {
      yield* (body as { data: ItemOf<P>[] }).data;
    }
  }

  async function shortUrl(urlCode: string): Promise<ShortUrl> {
    return shortUrlOf(await get('/affiliate/shortener/urls/{urlCode}', { path: { urlCode } }));
  }

  async function createShortUrl(
    body: ShortUrlRequest,
    { idempotencyKey }: { idempotencyKey?: string } = {},
  ): Promise<{ shortUrl: ShortUrl; created: boolean }> {
    const answer = await raw.POST('/affiliate/shortener/url', {
      body,
      params: { header: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} },
    });
    if (answer.error !== undefined || !answer.data) throw apiErrorOf(answer.response, answer.error);
    return { shortUrl: shortUrlOf(answer.data), created: answer.response.status === 201 };
  }

  return { raw, get, pages, items, shortUrl, createShortUrl };
}

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export function pageInfoOf(body: unknown): PageInfo {
  if (isRecord(body) && isRecord(body.meta)) return body.meta as PageInfo;
  if (isRecord(body) && isRecord(body.pagination)) return body.pagination as PageInfo;
  throw new Error('not a meta or pagination envelope');
}

// ---- webhooks -----------------------------------------------------------------------------------

/** An order as `GET /affiliate/orders/{orderId}` answers it, as order webhooks carry it. */
export type Order = Schemas['Order'];
export type OrderStatus = Schemas['OrderStatus'];
/** A payout as `GET /affiliate/payouts/{payoutId}` answers it, as payout webhooks carry it. */
export type Payout = Schemas['Payout'];
/** A ledger entry as `GET /affiliate/earnings/{earningId}` answers it, as `earning.created` carries it. */
export type Earning = Schemas['Earning'];
// The bodies by event type, and by kind of event, as the service's modules declare them.
export type {
  WebhookBodies,
  OrderWebhook,
  PayoutWebhook,
  EarningWebhook,
  TestWebhook,
} from './openapi.gen';
export type WebhookType = keyof WebhookBodies;
/**
 * The body of a webhook request, once its signature is verified (Standard Webhooks): one of every
 * event the service sends, told apart by `type`.
 */
export type Webhook = WebhookBodies[WebhookType];
