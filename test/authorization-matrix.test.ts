// The authorization matrix (contract, Authentication 3-5 and its scope table): every REST route and
// every GraphQL root field, called with every kind of credential, on REST and GraphQL separately,
// against ONE table below. The table must list exactly the route table's routes and the schema's
// root fields, so a new route or field without a row fails here. Then cross-tenant: every affiliate
// route taking a tenant-owned id answers 404 for the other affiliate's id.
import { SignJWT } from 'jose';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { SCOPES_BY_KEY_TYPE, type ApiScope, type KeyType } from '../src/auth/scopes';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { ROUTES } from '../src/modules';
import { SURFACES } from '../src/rest/routes';
import { createIsolatedApp, type RawAnswer, send, useTestDatabase } from './support/app';
import { createApiKey, createLegacyKey } from './support/factories';
import { createTenants, operationFor, rootFields, type Tenants } from './support/hardening';

useTestDatabase();

type Auth = { key: KeyType; scope: ApiScope } | 'dashboard';
type Args = (t: Tenants & { keyIds: KeyIds }) => Record<string, unknown>;

interface Row {
  /** The GraphQL root field. */
  field: string;
  /** `METHOD /path` of the REST route serving the field, if any (src/rest/routes.ts). */
  rest?: string;
  auth: Auth;
  /** Path parameters, body (POST) or GraphQL arguments, from this file's rows. */
  args?: Args;
  /** Affiliate routes taking an id: arguments naming the OTHER affiliate's row (tenant-owned). */
  otherTenant?: Args;
  /** Affiliate routes taking an id of the shared catalog, with no tenant to cross. */
  catalog?: true;
  /** Dashboard fields of affiliate users only: a partner user's token is FORBIDDEN. */
  affiliateUsersOnly?: true;
}

const key = (type: KeyType, scope: ApiScope): Auth => ({ key: type, scope });

/** A documentation address (192.0.2.0/24): no postback is ever sent there. */
const POSTBACK_URL = 'https://192.0.2.10/postback';

// The contract's scope table, row by row; key management takes the dashboard token (x-api-token).
const TABLE: Row[] = [
  {
    field: 'Query.partnerOrganizations',
    rest: 'GET /api/partner/organizations',
    auth: key('partner', 'organizations:read'),
  },
  {
    field: 'Query.partnerBrands',
    rest: 'GET /api/partner/brands',
    auth: key('partner', 'brands:read'),
  },
  {
    field: 'Query.partnerBrand',
    rest: 'GET /api/partner/brands/:brandId',
    auth: key('partner', 'brands:read'),
    args: (t) => ({ brandId: t.brand.id }),
  },
  {
    field: 'Query.partnerCampaigns',
    rest: 'GET /api/partner/campaigns',
    auth: key('partner', 'campaigns:read'),
  },
  {
    field: 'Query.partnerCampaign',
    rest: 'GET /api/partner/campaigns/:campaignId',
    auth: key('partner', 'campaigns:read'),
    args: (t) => ({ campaignId: t.campaign.id }),
  },
  {
    field: 'Query.affiliateBrands',
    rest: 'GET /affiliate/brands',
    auth: key('affiliate', 'brands:read'),
  },
  {
    field: 'Query.affiliateBrand',
    rest: 'GET /affiliate/brands/:brandId',
    auth: key('affiliate', 'brands:read'),
    args: (t) => ({ brandId: t.brand.id }),
    catalog: true,
  },
  {
    field: 'Query.affiliateChannels',
    rest: 'GET /affiliate/channels',
    auth: key('affiliate', 'channels:read'),
  },
  {
    field: 'Query.affiliateChannel',
    rest: 'GET /affiliate/channels/:channelId',
    auth: key('affiliate', 'channels:read'),
    args: (t) => ({ channelId: t.a.channel.id }),
    otherTenant: (t) => ({ channelId: t.b.channel.id }),
  },
  {
    field: 'Query.affiliateCampaigns',
    rest: 'GET /affiliate/campaigns',
    auth: key('affiliate', 'campaigns:read'),
  },
  {
    field: 'Query.affiliateCoupons',
    rest: 'GET /affiliate/coupons',
    auth: key('affiliate', 'campaigns:read'),
  },
  {
    field: 'Query.affiliateCampaign',
    rest: 'GET /affiliate/campaigns/:campaignId',
    auth: key('affiliate', 'campaigns:read'),
    args: (t) => ({ campaignId: t.campaign.id }),
    catalog: true,
  },
  // Removed (410 for whoever may ask), still behind the scope of the campaigns it was part of.
  {
    field: 'Query.affiliateOffers',
    rest: 'GET /affiliate/offers',
    auth: key('affiliate', 'campaigns:read'),
  },
  {
    field: 'Query.affiliateOrders',
    rest: 'GET /affiliate/orders',
    auth: key('affiliate', 'orders:read'),
  },
  {
    field: 'Query.affiliateOrder',
    rest: 'GET /affiliate/orders/:orderId',
    auth: key('affiliate', 'orders:read'),
    args: (t) => ({ orderId: t.a.order.id }),
    otherTenant: (t) => ({ orderId: t.b.order.id }),
  },
  {
    field: 'Query.affiliateOrderHistory',
    rest: 'GET /affiliate/orders/:orderId/events',
    auth: key('affiliate', 'orders:read'),
    args: (t) => ({ orderId: t.a.order.id }),
    otherTenant: (t) => ({ orderId: t.b.order.id }),
  },
  {
    field: 'Query.affiliateOrderEvents',
    rest: 'GET /affiliate/order-events',
    auth: key('affiliate', 'orders:read'),
  },
  {
    field: 'Query.affiliateProducts',
    rest: 'GET /affiliate/products',
    auth: key('affiliate', 'products:read'),
  },
  {
    field: 'Query.affiliatePerformanceReport',
    rest: 'GET /affiliate/reports/performance',
    auth: key('affiliate', 'reports:read'),
    args: () => ({ groupBy: 'day' }),
  },
  {
    field: 'Query.affiliateBalance',
    rest: 'GET /affiliate/balance',
    auth: key('affiliate', 'payouts:read'),
  },
  {
    field: 'Query.affiliatePayouts',
    rest: 'GET /affiliate/payouts',
    auth: key('affiliate', 'payouts:read'),
  },
  {
    field: 'Query.affiliatePayout',
    rest: 'GET /affiliate/payouts/:payoutId',
    auth: key('affiliate', 'payouts:read'),
    args: (t) => ({ payoutId: t.a.payout.id }),
    otherTenant: (t) => ({ payoutId: t.b.payout.id }),
  },
  {
    field: 'Query.affiliatePayoutItems',
    rest: 'GET /affiliate/payouts/:payoutId/items',
    auth: key('affiliate', 'payouts:read'),
    args: (t) => ({ payoutId: t.a.payout.id }),
    otherTenant: (t) => ({ payoutId: t.b.payout.id }),
  },
  {
    field: 'Query.affiliateEarnings',
    rest: 'GET /affiliate/earnings',
    auth: key('affiliate', 'payouts:read'),
  },
  {
    field: 'Query.affiliateEarning',
    rest: 'GET /affiliate/earnings/:earningId',
    auth: key('affiliate', 'payouts:read'),
    args: (t) => ({ earningId: t.a.earning.id }),
    otherTenant: (t) => ({ earningId: t.b.earning.id }),
  },
  {
    field: 'Mutation.createShortUrl',
    rest: 'POST /affiliate/shortener/url',
    auth: key('affiliate', 'shortener:write'),
    args: (t) => ({ organizationId: t.brand.id }),
  },
  {
    field: 'Query.affiliateShortUrls',
    rest: 'GET /affiliate/shortener/urls',
    auth: key('affiliate', 'shortener:read'),
  },
  {
    field: 'Query.affiliateShortUrl',
    rest: 'GET /affiliate/shortener/urls/:urlCode',
    auth: key('affiliate', 'shortener:read'),
    args: (t) => ({ urlCode: t.a.link.urlCode }),
    otherTenant: (t) => ({ urlCode: t.b.link.urlCode }),
  },
  { field: 'Query.listApiKeys', auth: 'dashboard' },
  {
    field: 'Query.apiKeyEvents',
    auth: 'dashboard',
    args: (t) => ({ keyId: t.keyIds.toRotate }),
  },
  {
    field: 'Mutation.createApiKey',
    auth: 'dashboard',
    args: () => ({ input: { name: 'matrix' } }),
  },
  {
    field: 'Mutation.rotateApiKey',
    auth: 'dashboard',
    args: (t) => ({ id: t.keyIds.toRotate }),
  },
  {
    field: 'Mutation.revokeApiKey',
    auth: 'dashboard',
    args: (t) => ({ id: t.keyIds.toRevoke }),
  },
  { field: 'Query.listWebhookEndpoints', auth: 'dashboard', affiliateUsersOnly: true },
  {
    field: 'Query.webhookDeliveries',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ endpointId: t.keyIds.endpoint }),
  },
  {
    field: 'Query.webhookDelivery',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.delivery }),
  },
  {
    field: 'Query.webhookEndpointEvents',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ endpointId: t.keyIds.endpoint }),
  },
  {
    field: 'Mutation.createWebhookEndpoint',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: () => ({ input: { url: 'https://93.184.215.14/hooks', events: ['order.created'] } }),
  },
  {
    field: 'Mutation.updateWebhookEndpoint',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.endpoint, input: { description: 'matrix' } }),
  },
  {
    field: 'Mutation.deleteWebhookEndpoint',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.endpointToDelete }),
  },
  {
    field: 'Mutation.rotateWebhookSecret',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.endpoint }),
  },
  {
    field: 'Mutation.redeliverWebhook',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ deliveryId: t.keyIds.delivery }),
  },
  {
    field: 'Mutation.sendTestWebhook',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ endpointId: t.keyIds.endpoint }),
  },
  // Postbacks point at a documentation address: refused when saved, and at sending.
  { field: 'Query.listPostbacks', auth: 'dashboard', affiliateUsersOnly: true },
  {
    field: 'Query.postbackDeliveries',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ postbackId: t.keyIds.postback }),
  },
  {
    field: 'Query.postbackPreset',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: () => ({ tracker: 'KEITARO', baseUrl: `${POSTBACK_URL}/k/postback` }),
  },
  {
    field: 'Mutation.createPostback',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: () => ({
      input: { name: 'matrix', events: ['order.created'], urlTemplate: `${POSTBACK_URL}?s={sub1}` },
    }),
  },
  {
    field: 'Mutation.updatePostback',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.postback, input: { name: 'matrix' } }),
  },
  {
    field: 'Mutation.deletePostback',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.postbackToDelete }),
  },
  {
    field: 'Mutation.redeliverPostback',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ deliveryId: t.keyIds.postbackDelivery }),
  },
  {
    field: 'Mutation.replayPostbacks',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({
      postbackId: t.keyIds.postback,
      since: '2020-01-01T00:00:00Z',
      until: '2030-01-01T00:00:00Z',
    }),
  },
  {
    field: 'Mutation.sendTestPostback',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: (t) => ({ id: t.keyIds.postback }),
  },
  {
    field: 'Mutation.triggerEvent',
    auth: 'dashboard',
    affiliateUsersOnly: true,
    args: () => ({ type: 'ORDER_STATUS_CHANGED' }),
  },
];

type Outcome = 'UNAUTHORIZED' | 'FORBIDDEN' | 'allowed';

/** A credential: an x-api-key (or none), and what the service should find in it. */
interface KeyKind {
  name: string;
  key?: string;
  /** Undefined: no valid key at all (missing, malformed, revoked, expired). */
  valid?: { type: KeyType; scopes: readonly string[] };
}

/** A dashboard credential: an x-api-token and/or an x-api-key. */
interface DashboardKind {
  name: string;
  token?: string;
  key?: string;
  /** Whether the token names an existing user. */
  valid: boolean;
  /** The role of that user. */
  role?: 'AFFILIATE' | 'PARTNER';
}

interface KeyIds {
  toRotate: string;
  toRevoke: string;
  /** Webhook endpoints and a delivery of affiliate a's dashboard user. */
  endpoint: string;
  endpointToDelete: string;
  delivery: string;
  /** Postbacks and a delivery of affiliate a's dashboard user. */
  postback: string;
  postbackToDelete: string;
  postbackDelivery: string;
}

const ALL = SCOPES_BY_KEY_TYPE;

function expectedForKey(auth: Exclude<Auth, 'dashboard'>, kind: KeyKind): Outcome {
  if (!kind.valid || kind.valid.type !== auth.key) return 'UNAUTHORIZED';
  return kind.valid.scopes.includes(auth.scope) ? 'allowed' : 'FORBIDDEN';
}

const app = createIsolatedApp();
let tenants: Tenants & { keyIds: KeyIds };
const keyKinds: KeyKind[] = [];
const dashboardKinds: DashboardKind[] = [];

beforeAll(async () => {
  const base = await createTenants();
  const owner = { affiliate: base.a.user.id, partner: base.partner.id };
  // Keys to rotate and revoke, belonging to affiliate a's dashboard user.
  const toRotate = await createApiKey('affiliate', { ownerId: owner.affiliate });
  const toRevoke = await createApiKey('affiliate', { ownerId: owner.affiliate });
  const endpoint = () =>
    prisma.webhookEndpoint.create({
      data: {
        ownerId: owner.affiliate,
        url: 'https://93.184.215.14/hooks',
        events: ['order.created'],
        secret: 'whsec_bWF0cml4LW1hdHJpeC1tYXRyaXgtbWF0cml4',
      },
    });
  const [hooks, toDelete] = [await endpoint(), await endpoint()];
  const event = await prisma.webhookEvent.create({ data: { type: 'webhook.test', payload: '{}' } });
  const delivery = await prisma.webhookDelivery.create({
    data: { eventId: event.id, endpointId: hooks.id, seq: event.seq, state: 'FAILED' },
  });
  const postback = () =>
    prisma.postback.create({
      data: {
        ownerId: owner.affiliate,
        name: 'matrix',
        events: ['order.created'],
        method: 'GET',
        urlTemplate: `${POSTBACK_URL}?subid={sub1}`,
        statusMap: {},
      },
    });
  const [tracker, trackerToDelete] = [await postback(), await postback()];
  const postbackEvent = await prisma.webhookEvent.create({
    data: { type: 'order.created', orderId: base.a.order.id, status: 'PENDING' },
  });
  const postbackDelivery = await prisma.webhookDelivery.findFirstOrThrow({
    where: { eventId: postbackEvent.id, postbackId: tracker.id },
  });
  tenants = {
    ...base,
    keyIds: {
      toRotate: toRotate.row.id,
      toRevoke: toRevoke.row.id,
      endpoint: hooks.id,
      endpointToDelete: toDelete.id,
      delivery: delivery.id,
      postback: tracker.id,
      postbackToDelete: trackerToDelete.id,
      postbackDelivery: postbackDelivery.id,
    },
  };

  const valid = async (name: string, type: KeyType, scopes: readonly string[]) => {
    const { apiKey } = await createApiKey(type, { ownerId: owner[type], scopes: [...scopes] });
    keyKinds.push({ name, key: apiKey, valid: { type, scopes } });
  };
  keyKinds.push({ name: 'no key' }, { name: 'malformed key', key: 'not-an-api-key' });
  for (const type of ['affiliate', 'partner'] as const) {
    const revoked = await createApiKey(type, { ownerId: owner[type], revokedAt: new Date() });
    const expired = await createApiKey(type, {
      ownerId: owner[type],
      expiresAt: new Date(Date.now() - 60_000),
    });
    keyKinds.push(
      { name: `revoked ${type} key`, key: revoked.apiKey },
      { name: `expired ${type} key`, key: expired.apiKey },
    );
    await valid(`${type} key (all scopes)`, type, ALL[type]);
    for (const scope of ALL[type]) {
      await valid(
        `${type} key without ${scope}`,
        type,
        ALL[type].filter((s) => s !== scope),
      );
      await valid(`${type} key with only ${scope}`, type, [scope]);
    }
  }
  const legacy = await createLegacyKey(owner.affiliate);
  keyKinds.push({
    name: 'legacy v1 affiliate key',
    key: legacy.apiKey,
    valid: { type: 'affiliate', scopes: ALL.affiliate },
  });

  const secret = new TextEncoder().encode(config.dashboardJwtSecret);
  const expiredToken = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(owner.affiliate)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(secret);
  const forgedToken = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(owner.affiliate)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('not-the-dashboard-secret-0123456789abcdef'));
  const affiliateKey = keyKinds.find((kind) => kind.name === 'affiliate key (all scopes)')!.key;
  const partnerKey = keyKinds.find((kind) => kind.name === 'partner key (all scopes)')!.key;
  dashboardKinds.push(
    { name: 'no token', valid: false },
    { name: 'malformed token', token: 'not.a.jwt', valid: false },
    { name: 'forged token', token: forgedToken, valid: false },
    { name: 'expired token', token: expiredToken, valid: false },
    {
      name: 'token of an unknown user',
      token: await signDashboardToken('99999999-9999-4999-8999-999999999999'),
      valid: false,
    },
    { name: 'affiliate API key instead of a token', key: affiliateKey, valid: false },
    { name: 'partner API key instead of a token', key: partnerKey, valid: false },
    { name: 'legacy API key instead of a token', key: legacy.apiKey, valid: false },
    {
      name: 'affiliate user token',
      token: await signDashboardToken(owner.affiliate),
      valid: true,
      role: 'AFFILIATE',
    },
    {
      name: 'partner user token',
      token: await signDashboardToken(owner.partner),
      valid: true,
      role: 'PARTNER',
    },
  );
});

function headersOf(credential: { key?: string; token?: string }): Record<string, string> {
  return {
    ...(credential.key !== undefined && { 'x-api-key': credential.key }),
    ...(credential.token !== undefined && { 'x-api-token': credential.token }),
  };
}

/**
 * The REST request for a row: path parameters substituted, the other arguments as JSON body (POST)
 * or query string (GET).
 */
function restCall(row: Row, args: Record<string, unknown>, headers: Record<string, string>) {
  const [method, template] = row.rest!.split(' ') as [string, string];
  const body: Record<string, unknown> = { ...args };
  const path = template.replace(/:(\w+)/g, (_match, name: string) => {
    const value = String(body[name]);
    delete body[name];
    return encodeURIComponent(value);
  });
  const query =
    method === 'GET' && Object.keys(body).length
      ? `?${new URLSearchParams(body as Record<string, string>)}`
      : '';
  return send(app, `${path}${query}`, {
    method,
    headers: { ...headers, ...(method === 'POST' && { 'content-type': 'application/json' }) },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
}

function graphqlCall(row: Row, args: Record<string, unknown>, headers: Record<string, string>) {
  return send(app, '/graphql', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: operationFor(row.field, args), variables: args }),
  });
}

interface GraphqlBody {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** What a REST answer says; a 5xx or a 401/403 without its code is a finding of its own. */
function restOutcome(answer: RawAnswer): string {
  const code = (answer.json as { code?: string } | undefined)?.code;
  if (answer.status === 401) return code === 'UNAUTHORIZED' ? 'UNAUTHORIZED' : `401 ${code}`;
  if (answer.status === 403) return code === 'FORBIDDEN' ? 'FORBIDDEN' : `403 ${code}`;
  return answer.status < 500 ? 'allowed' : `status ${answer.status}`;
}

function graphqlOutcome(answer: RawAnswer): string {
  if (answer.status !== 200) return `status ${answer.status}`;
  const codes = ((answer.json as GraphqlBody).errors ?? []).map((error) => error.extensions?.code);
  if (codes.includes('UNAUTHORIZED')) return 'UNAUTHORIZED';
  if (codes.includes('FORBIDDEN')) return 'FORBIDDEN';
  return codes.includes('INTERNAL_SERVER_ERROR') ? 'INTERNAL_SERVER_ERROR' : 'allowed';
}

describe('the table', () => {
  test('lists every route of the route table, and only those', () => {
    const routed = ROUTES.map((route) => `${route.method} ${route.path} -> ${route.field}`);
    const listed = TABLE.filter((row) => row.rest).map((row) => `${row.rest} -> ${row.field}`);
    expect(listed.sort()).toEqual(routed.sort());
  });

  test('lists every root field of the schema, and only those', () => {
    expect(TABLE.map((row) => row.field).sort()).toEqual(rootFields().sort());
  });

  test("gives every REST route its surface's key type", () => {
    for (const row of TABLE.filter((r) => r.rest)) {
      const surface = SURFACES.find(({ prefix }) => row.rest!.split(' ')[1]!.startsWith(prefix));
      expect([row.rest, row.auth !== 'dashboard' && row.auth.key]).toEqual([
        row.rest,
        surface?.keyType,
      ]);
    }
  });

  test('says, for every affiliate route taking an id, whether the id is tenant-owned', () => {
    const idRoutes = TABLE.filter(
      (row) => row.rest?.includes('/affiliate/') && /:\w+/.test(row.rest),
    );
    expect(idRoutes.length).toBeGreaterThan(0);
    for (const row of idRoutes)
      expect([row.rest, !!row.otherTenant !== !!row.catalog]).toEqual([row.rest, true]);
  });

  test('every route answers 2xx to a key with every scope (the rows exist), offers 410', async () => {
    for (const row of TABLE.filter((r) => r.rest && r.auth !== 'dashboard')) {
      const auth = row.auth as Exclude<Auth, 'dashboard'>;
      const kind = keyKinds.find((k) => k.name === `${auth.key} key (all scopes)`)!;
      const answer = await restCall(row, row.args?.(tenants) ?? {}, headersOf(kind));
      const expected = row.field === 'Query.affiliateOffers' ? 410 : 200;
      expect([row.rest, answer.status === 201 ? 200 : answer.status]).toEqual([row.rest, expected]);
    }
  });
});

const keyRows = TABLE.filter((row) => row.auth !== 'dashboard');

describe.each(['REST', 'GraphQL'] as const)('%s: every key kind on every route', (transport) => {
  const rows = transport === 'REST' ? keyRows.filter((row) => row.rest) : keyRows;
  test.each(rows.map((row) => [transport === 'REST' ? row.rest! : row.field, row] as const))(
    '%s',
    async (_name, row) => {
      const auth = row.auth as Exclude<Auth, 'dashboard'>;
      const args = row.args?.(tenants) ?? {};
      const mismatches: string[] = [];
      for (const kind of keyKinds) {
        const answer =
          transport === 'REST'
            ? await restCall(row, args, headersOf(kind))
            : await graphqlCall(row, args, headersOf(kind));
        const outcome = transport === 'REST' ? restOutcome(answer) : graphqlOutcome(answer);
        const expected = expectedForKey(auth, kind);
        if (outcome !== expected) {
          mismatches.push(`${kind.name}: expected ${expected}, got ${outcome} ${answer.text}`);
        }
      }
      expect(keyKinds.length).toBeGreaterThanOrEqual(25);
      expect(mismatches).toEqual([]);
    },
  );
});

describe('GraphQL: every credential on every key-management field', () => {
  test.each(
    TABLE.filter((row) => row.auth === 'dashboard').map((row) => [row.field, row] as const),
  )('%s', async (_name, row) => {
    const args = row.args?.(tenants) ?? {};
    const mismatches: string[] = [];
    for (const kind of dashboardKinds) {
      const answer = await graphqlCall(row, args, headersOf(kind));
      const outcome = graphqlOutcome(answer);
      const expected = !kind.valid
        ? 'UNAUTHORIZED'
        : row.affiliateUsersOnly && kind.role !== 'AFFILIATE'
          ? 'FORBIDDEN'
          : 'allowed';
      if (outcome !== expected) {
        mismatches.push(`${kind.name}: expected ${expected}, got ${outcome} ${answer.text}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('cross-tenant: affiliate a asking for affiliate b rows', () => {
  const aKey = () => keyKinds.find((kind) => kind.name === 'affiliate key (all scopes)')!;
  const tenantRows = TABLE.filter((row) => row.otherTenant);

  test.each(tenantRows.map((row) => [row.rest!, row] as const))(
    'REST %s answers 404 for the other affiliate id, 200 for its own',
    async (_name, row) => {
      const own = await restCall(row, row.args!(tenants), headersOf(aKey()));
      const other = await restCall(row, row.otherTenant!(tenants), headersOf(aKey()));
      expect(own.status).toBe(200);
      expect([other.status, (other.json as { code?: string }).code]).toEqual([404, 'NOT_FOUND']);
    },
  );

  test.each(tenantRows.map((row) => [row.field, row] as const))(
    'GraphQL %s answers NOT_FOUND for the other affiliate id',
    async (_name, row) => {
      const other = await graphqlCall(row, row.otherTenant!(tenants), headersOf(aKey()));
      const body = other.json as GraphqlBody;
      expect(body.data).toBeNull();
      expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
    },
  );

  test("lists never show the other affiliate's channels, orders, links, payouts or entries", async () => {
    const lists = [
      '/affiliate/channels',
      '/affiliate/orders',
      '/affiliate/shortener/urls',
      '/affiliate/payouts',
      '/affiliate/earnings',
    ];
    const theirs = [
      tenants.b.channel.id,
      tenants.b.order.id,
      tenants.b.link.urlCode,
      tenants.b.payout.id,
      tenants.b.earning.id,
    ];
    for (const path of lists) {
      const { status, text } = await send(app, `${path}?limit=100`, { headers: headersOf(aKey()) });
      expect(status).toBe(200);
      for (const id of theirs) expect([path, text.includes(id)]).toEqual([path, false]);
    }
    // Own rows are there: the lists do answer.
    const own = await send(app, '/affiliate/orders', { headers: headersOf(aKey()) });
    expect(own.text).toContain(tenants.a.order.id);
  });

  test("the other affiliate's brand-page link is never a's: not in a's brand view, not a's link, not found for a", async () => {
    const bKey = await createApiKey('affiliate', { ownerId: tenants.b.user.id });
    const post = (apiKey: string) =>
      send(app, '/affiliate/shortener/url', {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ organizationId: tenants.brand.id }),
      });
    const theirs = ((await post(bKey.apiKey)).json as { data: { urlCode: string } }).data.urlCode;
    const brand = await send(app, `/affiliate/brands/${tenants.brand.id}`, {
      headers: headersOf(aKey()),
    });
    expect(brand.status).toBe(200);
    expect(brand.text).not.toContain(theirs);
    const mine = ((await post(aKey().key!)).json as { data: { urlCode: string } }).data.urlCode;
    expect(mine).not.toBe(theirs);
    const lookup = await send(app, `/affiliate/shortener/urls/${theirs}`, {
      headers: headersOf(aKey()),
    });
    expect(lookup.status).toBe(404);
  });

  test("a dashboard user cannot read the trail of, rotate or revoke another user's key", async () => {
    const token = dashboardKinds.find((kind) => kind.name === 'partner user token')!.token!;
    for (const field of ['Query.apiKeyEvents', 'Mutation.rotateApiKey', 'Mutation.revokeApiKey']) {
      const row = TABLE.find((r) => r.field === field)!;
      const answer = await graphqlCall(row, row.args!(tenants), { 'x-api-token': token });
      const body = answer.json as GraphqlBody;
      expect([field, body.errors?.map((error) => error.extensions?.code)]).toEqual([
        field,
        ['NOT_FOUND'],
      ]);
    }
  });
});
