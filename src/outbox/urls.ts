// Webhook and postback URLs: `https` (or `http` when private URLs are allowed), no credentials, the
// web's ports (80 and 443; any where private URLs are allowed, in development), and a host whose
// every address is reachable (src/outbox/addresses.ts). Checked when an endpoint or a postback is
// created or changed and again, after DNS, before every delivery, which then connects to the
// address checked.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isReachable } from './addresses';

const URL_MAX = 2_000;

/**
 * Why a URL's port is refused, or null: 443 and 80 (the URL's `port` is '' for its scheme's
 * default), so an endpoint cannot aim the service at another service of a public host (a
 * database, SMTP, an admin port). Any port where private URLs are allowed.
 */
function portRefusal(url: URL, allowPrivate: boolean, name = 'url'): string | null {
  if (allowPrivate || url.port === '' || url.port === '443' || url.port === '80') return null;
  return `${name} must use port 443 or 80 (others only where WEBHOOK_ALLOW_PRIVATE_URLS is set, in development)`;
}

/** How a refusal names the URL, and how long it may be. */
export interface UrlFormRules {
  /** The input's name in refusals: `url` for endpoints, `urlTemplate` for postbacks. */
  name?: string;
  maxLength?: number;
}

/** Why a URL cannot be a webhook endpoint (or a postback's), or null when its form is acceptable (before DNS). */
export function urlFormRefusal(
  raw: string,
  allowPrivate: boolean,
  { name = 'url', maxLength = URL_MAX }: UrlFormRules = {},
): string | null {
  if (raw.length > maxLength) return `${name} must be at most ${maxLength} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${name} must be an absolute URL, like https://example.com/webhooks`;
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return allowPrivate ? `${name} must be http or https` : `${name} must be https`;
  }
  if (url.username || url.password) return `${name} must not carry credentials (user:password@)`;
  if (url.hash) return `${name} must not have a fragment (#...)`;
  return portRefusal(url, allowPrivate, name);
}

/** Added, outside production, to a refusal that WEBHOOK_ALLOW_PRIVATE_URLS=1 would lift. */
export const PRIVATE_URLS_HINT =
  'in development, WEBHOOK_ALLOW_PRIVATE_URLS=1 allows http and local addresses';

export interface SavedUrlRules extends UrlFormRules {
  allowPrivate: boolean;
  /** Whether the service runs in production, where WEBHOOK_ALLOW_PRIVATE_URLS is refused. */
  isProduction: boolean;
  resolve?: Resolve;
}

/**
 * Why a URL cannot be saved for an endpoint or a postback (its form, then every address of its
 * host), or null. Outside production a refusal that WEBHOOK_ALLOW_PRIVATE_URLS would lift says so.
 */
export async function savedUrlRefusal(
  raw: string,
  { allowPrivate, isProduction, resolve = resolveHost, ...form }: SavedUrlRules,
): Promise<string | null> {
  const refusalWith = async (allowing: boolean) => {
    const refusal = urlFormRefusal(raw, allowing, form);
    if (refusal) return refusal;
    const check = await checkedAddress(new URL(raw), allowing, resolve);
    return check.ok ? null : `${form.name ?? 'url'} is not allowed: ${check.reason}`;
  };
  const refusal = await refusalWith(allowPrivate);
  if (!refusal || allowPrivate || isProduction || refusal.includes('WEBHOOK_ALLOW_PRIVATE_URLS')) {
    return refusal;
  }
  return (await refusalWith(true)) === null ? `${refusal} (${PRIVATE_URLS_HINT})` : refusal;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** Every address of a host name (an IP literal is its own address). */
export const resolveHost: Resolve = async (hostname) => {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare);
  if (family) return [{ address: bare, family: family as 4 | 6 }];
  return (await lookup(bare, { all: true, verbatim: true })) as ResolvedAddress[];
};

export type AddressCheck = { ok: true; address: ResolvedAddress } | { ok: false; reason: string };

/**
 * The address to connect to for `url`: every address of its host must be reachable (a name with
 * one private address among public ones is refused: which one a client picks is not ours to know).
 */
export async function checkedAddress(
  url: URL,
  allowPrivate: boolean,
  resolve: Resolve = resolveHost,
): Promise<AddressCheck> {
  // Endpoints are checked again at every delivery, whenever they were made.
  const port = portRefusal(url, allowPrivate);
  if (port) return { ok: false, reason: port };
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    return { ok: false, reason: `the host ${url.hostname} cannot be resolved` };
  }
  if (addresses.length === 0) {
    return { ok: false, reason: `the host ${url.hostname} has no address` };
  }
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (!isReachable(kind, allowPrivate)) {
      return { ok: false, reason: `the host ${url.hostname} resolves to a ${kind} address` };
    }
  }
  return { ok: true, address: addresses[0]! };
}
