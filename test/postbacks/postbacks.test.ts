// Postbacks: managed by the dashboard over GraphQL, fanned out of the outbox by the database in the
// writer's transaction, rendered in each tracker's own format and delivered by the outbox's
// dispatcher (its postback lane) to a real tracker on 127.0.0.1 that records what it gets.
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { prisma } from '../../src/platform/db';
import { startDeliveryDispatcher, type Dispatcher } from '../../src/outbox/dispatcher';
import { resolveHost } from '../../src/outbox/urls';
import { postbackLane } from '../../src/modules/postbacks/lane';
import { MAX_REPLAYED_ORDERS } from '../../src/modules/postbacks/replay';
import { conversionKey, SAMPLE_CONVERSION } from '../../src/modules/postbacks/macros';
import { RENDERED_BODY_MAX, RENDERED_URL_MAX } from '../../src/modules/postbacks/request';
import { MAX_LISTED_POSTBACK_DELIVERIES } from '../../src/modules/postbacks/schema/queries';
import { MAX_LISTED_POSTBACK_ATTEMPTS } from '../../src/modules/postbacks/schema/types';
import { RESPONSE_BODY_MAX_BYTES } from '../../src/outbox/send';
import { call, graphql, useTestDatabase } from '../support/app';
import {
  createApiKey,
  createBrand,
  createCampaign,
  createLink,
  createPersonalCode,
  createOrder,
  createUser,
  rolledBackOrderChanges,
} from '../support/factories';
import { metricNow, scrape } from '../support/metrics';
import { startTracker, type ReceivedPostback, type Tracker } from '../support/postbackReceiver';
import { allowPrivateUrls } from '../support/loopbackServer';
import { until } from '../support/wait';

useTestDatabase();
allowPrivateUrls(true);

const STATUS_MAP = 'statusMap { PENDING APPROVED REJECTED PAID UNAPPROVED }';
const FIELDS = `id name events statuses brandId campaignId linkCode method urlTemplate bodyFormat
  bodyTemplate ${STATUS_MAP} payoutRule successText hasSecret enabled createdAt failingSince
  disabledAt disabledReason`;
const CREATE = `mutation ($input: CreatePostbackInput!) { createPostback(input: $input) { ${FIELDS} } }`;
const LIST = `{ listPostbacks { ${FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdatePostbackInput!) {
  updatePostback(id: $id, input: $input) { ${FIELDS} } }`;
const DELETE = 'mutation ($id: ID!) { deletePostback(id: $id) }';
const PRESET = `query ($tracker: PostbackTracker!, $baseUrl: String!) {
  postbackPreset(tracker: $tracker, baseUrl: $baseUrl) {
    tracker source trackerSettings events statuses method urlTemplate ${STATUS_MAP}
    typeMap { PENDING APPROVED REJECTED PAID } payoutRule successText secret } }`;
const ATTEMPT_FIELDS =
  'attemptedAt request { method url body } statusCode responseBody durationMs error';
const DELIVERY_FIELDS = `id postbackId event orderId status state attemptCount nextAttemptAt
  deliveredAt createdAt attempts { ${ATTEMPT_FIELDS} }`;
const DELIVERIES = `query ($id: ID!, $since: DateTime, $state: PostbackDeliveryState) {
  postbackDeliveries(postbackId: $id, since: $since, state: $state) { ${DELIVERY_FIELDS} } }`;
const REDELIVER = `mutation ($id: ID!) { redeliverPostback(deliveryId: $id) { ${DELIVERY_FIELDS} } }`;
const REPLAY = `mutation ($id: ID!, $since: DateTime!, $until: DateTime!, $force: Boolean) {
  replayPostbacks(postbackId: $id, since: $since, until: $until, force: $force) {
    queued alreadyQueued repeated } }`;
const SEND_TEST = `mutation ($id: ID!, $orderId: ID) { sendTestPostback(id: $id, orderId: $orderId) {
  orderId request { method url body } statusCode responseBody durationMs error delivered } }`;
const ORDER_EVENTS = ['order.created', 'order.status_changed'];

let tracker: Tracker;
beforeAll(async () => {
  tracker = await startTracker();
});
afterAll(() => tracker.close());

/** A path of the tracker's own for one test. */
let paths = 0;
const uniquePath = () => `t${(paths += 1)}x${Math.random().toString(36).slice(2, 8)}`;

async function affiliateDashboard() {
  const user = await createUser('AFFILIATE');
  return { user, token: await signDashboardToken(user.id) };
}

type Postback = Record<string, unknown> & { id: string };

async function createPostback(token: string, input: Record<string, unknown>): Promise<Postback> {
  const { body } = await graphql(CREATE, { input }, { token });
  expect(body.errors).toBeUndefined();
  return body.data.createPostback;
}

/** The requests the tracker got under `path`. */
const receivedAt = (path: string) =>
  tracker.received.filter((postback) => postback.path.startsWith(`/${path}`));

const queryOf = (postback: ReceivedPostback) => Object.fromEntries(postback.query);

describe('managing postbacks (dashboard, x-api-token)', () => {
  test('createPostback saves a postback the list shows; its secret is never shown', async () => {
    const { token } = await affiliateDashboard();
    const path = uniquePath();
    const input = {
      name: '  Keitaro  ',
      events: ['order.status_changed'],
      urlTemplate: `${tracker.url}/{secret}/postback?subid={sub1}&status={status}`,
      statusMap: { APPROVED: 'sale', REJECTED: 'rejected' },
      successText: 'OK',
      secret: path,
    };
    const postback = await createPostback(token, input);
    expect(postback).toEqual({
      id: expect.any(String),
      name: 'Keitaro',
      events: ['order.status_changed'],
      statuses: [],
      brandId: null,
      campaignId: null,
      linkCode: null,
      method: 'GET',
      urlTemplate: input.urlTemplate,
      bodyFormat: null,
      bodyTemplate: null,
      statusMap: {
        PENDING: null,
        APPROVED: 'sale',
        REJECTED: 'rejected',
        PAID: null,
        UNAPPROVED: null,
      },
      payoutRule: 'EARNINGS',
      successText: 'OK',
      hasSecret: true,
      enabled: true,
      createdAt: expect.any(String),
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
    });
    const listed = await graphql(LIST, {}, { token });
    expect(listed.body.data.listPostbacks).toEqual([postback]);
    expect(JSON.stringify(listed.body)).not.toContain(path);
  });

  test('updatePostback changes the fields given, checks the whole again, pauses and resumes; deletePostback removes it', async () => {
    const { token } = await affiliateDashboard();
    const postback = await createPostback(token, {
      name: 'Binom',
      events: ORDER_EVENTS,
      urlTemplate: `${tracker.url}/click.php?cnv_id={sub1}`,
    });
    const updated = await graphql(
      UPDATE,
      {
        id: postback.id,
        input: {
          method: 'POST',
          bodyFormat: 'JSON',
          bodyTemplate: '{"clickid":"{sub1}","sum":"{payout}"}',
          statusMap: { PAID: 'paid' },
          enabled: false,
        },
      },
      { token },
    );
    expect(updated.body.data.updatePostback).toMatchObject({
      name: 'Binom',
      method: 'POST',
      bodyFormat: 'JSON',
      statusMap: { PENDING: null, APPROVED: null, REJECTED: null, PAID: 'paid' },
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: null,
    });
    // Back to GET while a body remains: the postback as a whole is refused.
    const refused = await graphql(UPDATE, { id: postback.id, input: { method: 'GET' } }, { token });
    expect(refused.body.errors[0]).toMatchObject({
      message: 'A GET postback has no body: leave bodyFormat and bodyTemplate out, or use POST',
      extensions: { code: 'BAD_REQUEST' },
    });
    const resumed = await graphql(UPDATE, { id: postback.id, input: { enabled: true } }, { token });
    expect(resumed.body.data.updatePostback).toMatchObject({ enabled: true, disabledAt: null });
    expect((await graphql(DELETE, { id: postback.id }, { token })).body.data).toEqual({
      deletePostback: postback.id,
    });
    expect((await graphql(LIST, {}, { token })).body.data.listPostbacks).toEqual([]);
  });

  test('postbackPreset fills a tracker’s template from its address; createPostback takes the preset and lets given fields win', async () => {
    const { token } = await affiliateDashboard();
    const baseUrl = `${tracker.url}/k3y/postback`;
    const preset = await graphql(PRESET, { tracker: 'KEITARO', baseUrl }, { token });
    expect(preset.body.data.postbackPreset).toEqual({
      tracker: 'KEITARO',
      source: 'https://docs.keitaro.io/en/conversions/postback.html',
      trackerSettings: expect.stringMatching(
        /^Nothing to set: Keitaro keeps one conversion per tid/,
      ),
      events: ['order.created', 'order.status_changed', 'order.adjusted'],
      statuses: [],
      method: 'GET',
      urlTemplate: `${tracker.url}/{secret}/postback?subid={sub1}&tid={order_id}&status={status}&payout={payout}&currency={currency}&sub_id_2={sub2}&sub_id_3={sub3}&sub_id_4={sub4}&sub_id_5={sub5}&return=OK`,
      statusMap: {
        PENDING: 'lead',
        APPROVED: 'sale',
        REJECTED: 'rejected',
        PAID: 'sale',
        UNAPPROVED: 'rejected',
      },
      typeMap: { PENDING: null, APPROVED: null, REJECTED: null, PAID: null },
      payoutRule: 'EARNINGS',
      successText: 'OK',
      secret: 'k3y',
    });
    // The preset's events unless given; the fields given win.
    const created = await createPostback(token, {
      name: 'From the preset',
      preset: { tracker: 'KEITARO', baseUrl },
      statusMap: { APPROVED: 'approved' },
      payoutRule: 'OWED',
    });
    expect(created).toMatchObject({
      events: ['order.created', 'order.status_changed', 'order.adjusted'],
      statuses: [],
      urlTemplate: preset.body.data.postbackPreset.urlTemplate,
      statusMap: {
        PENDING: null,
        APPROVED: 'approved',
        REJECTED: null,
        PAID: null,
        UNAPPROVED: null,
      },
      payoutRule: 'OWED',
      successText: 'OK',
      hasSecret: true,
    });
  });

  test('a partner user is refused with FORBIDDEN, no token with UNAUTHORIZED', async () => {
    const partner = await createUser('PARTNER');
    const token = await signDashboardToken(partner.id);
    expect((await graphql(LIST, {}, { token })).body.errors[0]).toMatchObject({
      message: 'Postbacks are for affiliate accounts',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await graphql(LIST)).body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  const valid = () => ({
    name: 'p',
    events: ORDER_EVENTS,
    urlTemplate: `${tracker.url}/postback?subid={sub1}`,
  });

  test.each([
    [
      'an unknown macro',
      { urlTemplate: 'https://127.0.0.1/p?subid={clickid}' },
      'urlTemplate uses an unknown macro {clickid}; the macros are {sub1}, {sub2}',
    ],
    [
      'an unclosed brace',
      { urlTemplate: 'https://127.0.0.1/p?subid={sub1' },
      'urlTemplate is malformed: the { at character 27 is not closed',
    ],
    [
      'a stray closing brace',
      { urlTemplate: 'https://127.0.0.1/p?subid=sub1}' },
      'urlTemplate is malformed: the } at character 31 closes nothing',
    ],
    [
      'a macro in the host',
      { urlTemplate: 'https://{sub1}.example.com/p' },
      'urlTemplate may hold macros only after the host, in the path or the query',
    ],
    [
      'an unknown macro in a JSON body',
      { method: 'POST', bodyFormat: 'JSON', bodyTemplate: '{"a":"{payot}"}' },
      'bodyTemplate at $.a uses an unknown macro {payot}',
    ],
    [
      'a body that is not JSON',
      { method: 'POST', bodyFormat: 'JSON', bodyTemplate: '{"a":' },
      'bodyTemplate is not JSON',
    ],
    [
      'a body on a GET',
      { bodyFormat: 'FORM', bodyTemplate: 'a={sub1}' },
      'A GET postback has no body',
    ],
    [
      '{secret} without a secret',
      { urlTemplate: 'https://127.0.0.1/{secret}/postback' },
      'The templates use {secret}: give the postback a secret',
    ],
    [
      'no URL template',
      { urlTemplate: undefined },
      'urlTemplate is required, or a preset that fills it',
    ],
    [
      'no events',
      { events: [] },
      'events must name at least one of order.created, order.status_changed',
    ],
    [
      'an unknown event',
      { events: ['order.deleted'] },
      'Unknown event type order.deleted; a postback takes order.created, order.status_changed',
    ],
    [
      'a fragment',
      { urlTemplate: 'https://127.0.0.1/p?x={sub1}#top' },
      'urlTemplate must not have a fragment',
    ],
    ['an ftp URL', { urlTemplate: 'ftp://127.0.0.1/p' }, 'urlTemplate must be http or https'],
    [
      'a metadata address',
      { urlTemplate: 'http://169.254.169.254/latest?x={sub1}' },
      'urlTemplate is not allowed: the host 169.254.169.254 resolves to a metadata address',
    ],
    [
      'a link-local address',
      { urlTemplate: 'http://[fe80::1]/p' },
      'urlTemplate is not allowed: the host [fe80::1] resolves to a link-local address',
    ],
    [
      'two scopes',
      { scope: { brandId: SAMPLE_CONVERSION.brandId, linkCode: 'x' } },
      'scope names one of brandId, campaignId or linkCode',
    ],
    [
      'an empty status word',
      { statusMap: { APPROVED: '' } },
      'statusMap.APPROVED must be 1 to 100 characters',
    ],
  ])(
    'refuses %s with BAD_REQUEST naming it, even where private URLs are allowed',
    async (_name, change, message) => {
      const { user, token } = await affiliateDashboard();
      const { body } = await graphql(CREATE, { input: { ...valid(), ...change } }, { token });
      expect(body.errors?.[0]).toMatchObject({
        message: expect.stringContaining(message),
        extensions: { code: 'BAD_REQUEST' },
      });
      expect(await prisma.postback.count({ where: { ownerId: user.id } })).toBe(0);
    },
  );

  test('without WEBHOOK_ALLOW_PRIVATE_URLS, http and loopback or private addresses are refused when saved', async () => {
    const { token } = await affiliateDashboard();
    allowPrivateUrls(false);
    try {
      const cases = [
        ['http://192.0.2.10/p?x={sub1}', 'urlTemplate must be https'],
        ['https://127.0.0.1/p?x={sub1}', 'resolves to a loopback address'],
        ['https://10.1.2.3/p?x={sub1}', 'resolves to a private address'],
        ['https://[::1]/p', 'resolves to a loopback address'],
        ['https://localhost/p?x={sub1}', 'resolves to a loopback address'],
        ['https://192.0.2.10/p', 'resolves to a reserved address'],
      ];
      for (const [urlTemplate, message] of cases) {
        const { body } = await graphql(CREATE, { input: { ...valid(), urlTemplate } }, { token });
        expect([urlTemplate, body.errors?.[0]]).toEqual([
          urlTemplate,
          expect.objectContaining({
            message: expect.stringContaining(message!),
            extensions: { code: 'BAD_REQUEST' },
          }),
        ]);
      }
    } finally {
      allowPrivateUrls(true);
    }
  });

  test('a postback with a secret moved to another host needs its secret again', async () => {
    const { token } = await affiliateDashboard();
    const postback = await createPostback(token, {
      ...valid(),
      urlTemplate: `${tracker.url}/{secret}/p?c={sub1}`,
      secret: 'kept-for-this-host',
    });
    const elsewhere = `http://localhost:${new URL(tracker.url).port}/{secret}/p?c={sub1}`;
    const moved = await graphql(
      UPDATE,
      { id: postback.id, input: { urlTemplate: elsewhere } },
      { token },
    );
    expect(moved.body.errors?.[0]).toMatchObject({
      message:
        'The secret was given for the host of the current urlTemplate: give secret again (or null for none) with a urlTemplate on another host',
      extensions: { code: 'BAD_REQUEST' },
    });
    const samePlace = `${tracker.url}/{secret}/other?c={sub1}`;
    const kept = await graphql(
      UPDATE,
      { id: postback.id, input: { urlTemplate: samePlace } },
      { token },
    );
    expect(kept.body.data.updatePostback).toMatchObject({
      urlTemplate: samePlace,
      hasSecret: true,
    });
    const given = await graphql(
      UPDATE,
      { id: postback.id, input: { urlTemplate: elsewhere, secret: 'given-again' } },
      { token },
    );
    expect(given.body.data.updatePostback).toMatchObject({
      urlTemplate: elsewhere,
      hasSecret: true,
    });
  });

  test('a scope names a brand or campaign that exists, or a link of the owner', async () => {
    const { token } = await affiliateDashboard();
    const other = await createUser('AFFILIATE');
    const brand = await createBrand();
    const theirs = await createLink(other.id, brand.id);
    const missing = '99999999-9999-4999-8999-999999999999';
    for (const [scope, message] of [
      [{ brandId: missing }, `Brand ${missing} not found`],
      [{ campaignId: missing }, `Campaign ${missing} not found`],
      [{ linkCode: theirs.urlCode }, `Short link ${theirs.urlCode} not found`],
    ] as const) {
      const { body } = await graphql(CREATE, { input: { ...valid(), scope } }, { token });
      expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'NOT_FOUND' } });
    }
    const scoped = await createPostback(token, { ...valid(), scope: { brandId: brand.id } });
    expect(scoped).toMatchObject({ brandId: brand.id, campaignId: null, linkCode: null });
  });

  test('at most 20 postbacks per user, also under concurrency: 6 at once with 19 present leave 20', async () => {
    const { user, token } = await affiliateDashboard();
    await prisma.postback.createMany({
      data: Array.from({ length: 19 }, (_, n) => ({
        ownerId: user.id,
        name: `present ${n}`,
        events: ORDER_EVENTS,
        method: 'GET' as const,
        urlTemplate: `${tracker.url}/present-${n}`,
        statusMap: {},
      })),
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        graphql(CREATE, { input: { ...valid(), name: `new ${n}` } }, { token }),
      ),
    );
    const created = answers.filter(({ body }) => body.data?.createPostback);
    const refused = answers.filter(({ body }) =>
      body.errors?.some(
        (error: { message: string; extensions: { code: string } }) =>
          error.message === 'At most 20 postbacks per user: delete one first' &&
          error.extensions.code === 'BAD_REQUEST',
      ),
    );
    expect([created.length, refused.length]).toEqual([1, 5]);
    const live = { ownerId: user.id, deletedAt: null };
    expect(await prisma.postback.count({ where: live })).toBe(20);
    await graphql(DELETE, { id: created[0]!.body.data.createPostback.id }, { token });
    await createPostback(token, valid());
    expect(await prisma.postback.count({ where: live })).toBe(20);
  });

  test('createPostback runs at most 10 times a minute per user', async () => {
    const { token } = await affiliateDashboard();
    for (let n = 0; n < 10; n += 1) {
      const { body } = await graphql(CREATE, { input: valid() }, { token });
      expect(body.errors).toBeUndefined();
    }
    const { body } = await graphql(CREATE, { input: valid() }, { token });
    expect(body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
  });

  test('deleting a postback drops its undelivered deliveries, which nothing would send', async () => {
    const { user, token } = await affiliateDashboard();
    const postback = await createPostback(token, valid());
    await createOrder(user.id, (await createBrand()).id);
    const undelivered = () =>
      prisma.webhookDelivery.count({ where: { postbackId: postback.id, state: 'PENDING' } });
    expect(await undelivered()).toBe(1);
    await graphql(DELETE, { id: postback.id }, { token });
    expect(await undelivered()).toBe(0);
  });

  test('each user sees and replays only their own postbacks, deliveries and orders', async () => {
    const owner = await affiliateDashboard();
    const other = await affiliateDashboard();
    const postback = await createPostback(owner.token, valid());
    const order = await createOrder(owner.user.id, (await createBrand()).id);
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({
      where: { postbackId: postback.id },
    });
    await graphql(UPDATE, { id: postback.id, input: { enabled: false } }, { token: owner.token });
    expect((await graphql(LIST, {}, { token: other.token })).body.data.listPostbacks).toEqual([]);
    const window = { since: '2020-01-01T00:00:00Z', until: '2030-01-01T00:00:00Z' };
    for (const [query, variables] of [
      [UPDATE, { id: postback.id, input: { name: 'mine' } }],
      [DELETE, { id: postback.id }],
      [DELIVERIES, { id: postback.id }],
      [REPLAY, { id: postback.id, ...window }],
      [SEND_TEST, { id: postback.id }],
      [REDELIVER, { id: delivery.id }],
    ] as const) {
      const { body } = await graphql(query, variables, { token: other.token });
      expect(body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    }
    // Their own postback, the owner's order: not found either.
    const theirs = await createPostback(other.token, valid());
    const { body } = await graphql(
      SEND_TEST,
      { id: theirs.id, orderId: order.id },
      { token: other.token },
    );
    expect(body.errors[0]).toMatchObject({
      message: `Order ${order.id} not found`,
      extensions: { code: 'NOT_FOUND' },
    });
    // And the owner's are untouched.
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(1);
    expect(
      (await prisma.postback.findUniqueOrThrow({ where: { id: postback.id } })).deletedAt,
    ).toBeNull();
  });
});

/** The settings of the dispatchers this file starts: short retries, a quick disable. */
const DISPATCH = {
  pollIntervalMs: 200,
  leaseS: 30,
  retryDelaysS: [1, 1],
  disableAfterS: 2,
};

describe('delivery to a real tracker', () => {
  let dispatcher: Dispatcher;

  beforeAll(() => {
    dispatcher = startDeliveryDispatcher(postbackLane, {
      ...DISPATCH,
      allowPrivateUrls: true,
      // Names of this test's own: one rebound to the metadata address since its postback was
      // saved, one only this resolver knows (so a delivery to it proves the pinned address).
      resolve: async (hostname) => {
        if (hostname === 'rebound.test') return [{ address: '169.254.169.254', family: 4 }];
        if (hostname === 'pinned.test') return [{ address: '127.0.0.1', family: 4 }];
        return resolveHost(hostname);
      },
    });
  });
  afterAll(() => dispatcher.stop());

  /** An affiliate with a brand, and the order SQL of the network's back office. */
  async function affiliateWithBrand() {
    const { user, token } = await affiliateDashboard();
    return { user, token, brand: await createBrand() };
  }

  const setStatus = (orderId: string, status: string) =>
    prisma.$executeRaw`UPDATE "Order" SET "status" = ${status}::"OrderStatus",
      "statusReason" = CASE WHEN ${status} = 'REJECTED' THEN 'OTHER'::"OrderStatusReason" END
      WHERE "id" = ${orderId}::uuid`;

  const deliveriesOf = async (token: string, postbackId: string, extra = {}) =>
    (await graphql(DELIVERIES, { id: postbackId, ...extra }, { token })).body.data
      .postbackDeliveries as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any

  const SUB_IDS = { sub1: 'clk-8f2a', sub2: 'newsletter', sub3: 'hero' };

  // What each tracker's documentation names (docs/postbacks.md): an order recorded (PENDING),
  // approved, then locked, each with what its preset sends for it (nothing where it sends none).
  const ORDER_STEPS = ['recorded', 'approved', 'locked'] as const;
  type Sent = (order: { id: string }) => Record<string, string>;
  test.each<[string, (path: string) => string, (path: string) => string, (Sent | null)[]]>([
    [
      'KEITARO',
      (path) => `${tracker.url}/${path}/postback`,
      (path) => `/${path}/postback`,
      [
        ...['lead', 'sale'].map((status): Sent => (order) => ({
          subid: 'clk-8f2a',
          tid: order.id,
          status,
          payout: '5.00',
          currency: 'EUR',
          sub_id_2: 'newsletter',
          sub_id_3: 'hero',
          sub_id_4: '',
          sub_id_5: '',
          return: 'OK',
        })),
        null,
      ],
    ],
    [
      'VOLUUM',
      (path) => `${tracker.url}/${path}/postback?cid=REPLACE&payout=OPTIONAL`,
      (path) => `/${path}/postback`,
      // Only once the order is final: Voluum takes a click and transaction once.
      [
        null,
        null,
        (order) => ({
          cid: 'clk-8f2a',
          payout: '5.00',
          txid: order.id,
          currency: 'EUR',
          param2: 'newsletter',
          param3: 'hero',
          param4: '',
          param5: '',
        }),
      ],
    ],
    [
      'REDTRACK',
      (path) => `${tracker.url}/${path}/postback`,
      (path) => `/${path}/postback`,
      [
        ...(
          [
            ['Pending', 'Lead', 'PENDING', 0],
            ['Approved', 'Purchase', 'APPROVED', 500],
          ] as const
        ).map(([status, type, orderStatus, owed]): Sent => (order) => ({
          clickid: 'clk-8f2a',
          sum: (owed / 100).toFixed(2),
          status,
          type,
          rdtk_event_id: conversionKey(order.id, orderStatus, owed),
        })),
        null,
      ],
    ],
    [
      'BINOM',
      (path) => `${tracker.url}/${path}/click.php`,
      (path) => `/${path}/click.php`,
      [
        ...(
          [
            ['pending', '0.00'],
            ['approved', '5.00'],
          ] as const
        ).map(([status, payout]): Sent => () => ({
          cnv_id: 'clk-8f2a',
          payout,
          cnv_status: status,
          cnv_currency: 'EUR',
        })),
        null,
      ],
    ],
  ])(
    '%s: an order with sub-IDs recorded, approved and locked arrives as the tracker documents it',
    async (preset, baseUrl, expectedPath, expected) => {
      const { user, token, brand } = await affiliateWithBrand();
      const path = uniquePath();
      const postback = await createPostback(token, {
        name: preset,
        preset: { tracker: preset, baseUrl: baseUrl(path) },
      });
      const order = await createOrder(user.id, brand.id, SUB_IDS);
      await setStatus(order.id, 'APPROVED');
      await prisma.$executeRaw`UPDATE "Order" SET "lockedAt" = now() AT TIME ZONE 'UTC'
        WHERE "id" = ${order.id}::uuid`;
      const sent = expected.flatMap((query, step) => (query ? [[ORDER_STEPS[step], query]] : []));
      // Deliveries are made in the writers' transactions: their count is final once those commit.
      expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(
        sent.length,
      );
      await until(() => receivedAt(path).length === sent.length, 'the postbacks');
      const received = receivedAt(path);
      expect(received.map((request) => request.path)).toEqual(sent.map(() => expectedPath(path)));
      expect(received.map(queryOf)).toEqual(sent.map(([, query]) => (query as Sent)(order)));
    },
  );

  test('a sub-ID of .. in the path is sent encoded, never as a dot segment, and the attempt shows what was sent', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'dots',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}/get/{sub5}/tail/{sub4}.?c={sub1}`,
    });
    await createOrder(user.id, brand.id, { sub1: '..', sub4: '.', sub5: '..' });
    await until(() => receivedAt(path).length === 1, 'the postback');
    const target = `/${path}/get/%2E%2E/tail/%2E.?c=..`;
    expect(receivedAt(path)[0]!.target).toBe(target);
    await until(
      async () => (await deliveriesOf(token, postback.id))[0]?.attempts.length === 1,
      'the attempt',
    );
    const [delivery] = await deliveriesOf(token, postback.id);
    expect(delivery!.attempts[0].request.url).toBe(`${tracker.url}${target}`);
  });

  test("a tracker's answer that echoes the request's secrets is kept and shown without them", async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const secrets = ['the-postback-secret', 'a-literal-api-key'];
    const answer = tracker.answer;
    tracker.answer = (sent) =>
      sent.path.startsWith(`/${path}`) ? { status: 200, body: `got ${sent.target}` } : answer(sent);
    try {
      const postback = await createPostback(token, {
        name: 'echo',
        events: ['order.created'],
        urlTemplate: `${tracker.url}/${path}/{secret}?c={sub1}&api_key=${secrets[1]}`,
        secret: secrets[0],
      });
      await createOrder(user.id, brand.id, { sub1: 'clk' });
      await until(
        async () => (await deliveriesOf(token, postback.id))[0]?.attempts.length === 1,
        'the attempt',
      );
      const [delivery] = await deliveriesOf(token, postback.id);
      const tested = await graphql(SEND_TEST, { id: postback.id }, { token });
      for (const shown of [
        delivery!.attempts[0].responseBody,
        tested.body.data.sendTestPostback.responseBody,
      ]) {
        expect(shown).toMatch(/^got \/\S+\/REDACTED\?c=\S+&api_key=REDACTED$/);
        for (const secret of secrets) expect(shown).not.toContain(secret);
      }
    } finally {
      tracker.answer = answer;
    }
  });

  test('a status filter: only the events that leave the order in a status it takes are sent, replays too', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'approvals',
      events: ORDER_EVENTS,
      statuses: ['APPROVED'],
      urlTemplate: `${tracker.url}/${path}?n={order_number}&status={status}`,
    });
    const orderedAt = new Date('2026-04-02T10:00:00.000Z');
    const [approved, pending] = [
      await createOrder(user.id, brand.id, { orderedAt }),
      await createOrder(user.id, brand.id, { orderedAt }),
    ];
    await setStatus(approved.id, 'APPROVED');
    await setStatus(approved.id, 'REJECTED');
    await setStatus(approved.id, 'APPROVED');
    await until(() => receivedAt(path).length === 2, 'the approvals');
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(2);
    const window = {
      id: postback.id,
      since: '2026-04-01T00:00:00Z',
      until: '2026-04-03T00:00:00Z',
    };
    expect((await graphql(REPLAY, window, { token })).body.data.replayPostbacks).toMatchObject({
      queued: 1,
    });
    await until(() => receivedAt(path).length === 3, 'the replay');
    expect(receivedAt(path).map(queryOf)).toEqual(
      Array(3).fill({ n: approved.orderNumber, status: 'APPROVED' }),
    );
    expect(receivedAt(path).some((sent) => sent.query.get('n') === pending.orderNumber)).toBe(
      false,
    );
  });

  test('a status change sends the mapped status, and a status the map does not name as the network’s', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    await createPostback(token, {
      name: 'statuses',
      events: ['order.status_changed'],
      urlTemplate: `${tracker.url}/${path}?status={status}&was={previous_status}&event={event}`,
      statusMap: { APPROVED: 'approved-word' },
    });
    const order = await createOrder(user.id, brand.id);
    await setStatus(order.id, 'APPROVED');
    await setStatus(order.id, 'REJECTED');
    await until(() => receivedAt(path).length === 2, 'the two changes');
    expect(receivedAt(path).map(queryOf)).toEqual([
      { status: 'approved-word', was: 'PENDING', event: 'order.status_changed' },
      { status: 'REJECTED', was: 'APPROVED', event: 'order.status_changed' },
    ]);
  });

  test('an adjustment, an approval and a payment written in SQL send order.adjusted and order.status_changed, each change with its own reason and the payout first recorded', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    await createPostback(token, {
      name: 'lifecycle',
      events: ['order.adjusted', 'order.status_changed'],
      urlTemplate: `${tracker.url}/${path}?event={event}&status={status}&reason={reason}&payout={payout}&first={original_payout}`,
    });
    const order = await createOrder(user.id, brand.id, { earningsMinor: 500 });
    await prisma.$executeRaw`UPDATE "Order" SET "earningsMinor" = 300,
      "statusReason" = 'RETURNED' WHERE "id" = ${order.id}::uuid`;
    // The order keeps the adjustment's reason; the status changes give none of their own.
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${order.id}::uuid`;
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${order.id}::uuid`;
    await until(() => receivedAt(path).length === 3, 'the three events');
    expect(receivedAt(path).map(queryOf)).toEqual([
      {
        event: 'order.adjusted',
        status: 'PENDING',
        reason: 'RETURNED',
        payout: '3.00',
        first: '5.00',
      },
      {
        event: 'order.status_changed',
        status: 'APPROVED',
        reason: '',
        payout: '3.00',
        first: '5.00',
      },
      { event: 'order.status_changed', status: 'PAID', reason: '', payout: '3.00', first: '5.00' },
    ]);
  });

  test('order.paid alone sends a payment once; with order.status_changed it would be twice, which is refused', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'payments',
      events: ['order.paid'],
      urlTemplate: `${tracker.url}/${path}?event={event}&status={status}`,
    });
    const order = await createOrder(user.id, brand.id, { status: 'APPROVED' });
    await setStatus(order.id, 'PAID');
    await until(() => receivedAt(path).length === 1, 'the payment');
    expect(receivedAt(path).map(queryOf)).toEqual([{ event: 'order.paid', status: 'PAID' }]);
    const both = ['order.status_changed', 'order.paid'];
    const refusal = {
      message:
        'order.status_changed already reports a payment (the move to PAID): take it alone, or order.paid without it, so that a payment is sent once',
      extensions: { code: 'BAD_REQUEST' },
    };
    const input = { name: 'both', events: both, urlTemplate: `${tracker.url}/${path}` };
    const created = await graphql(CREATE, { input }, { token });
    expect(created.body.errors?.[0]).toMatchObject(refusal);
    const updated = await graphql(UPDATE, { id: postback.id, input: { events: both } }, { token });
    expect(updated.body.errors?.[0]).toMatchObject(refusal);
  });

  test('a rolled-back change sends nothing', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'rollback',
      events: ORDER_EVENTS,
      urlTemplate: `${tracker.url}/${path}?order={order_number}&status={status}`,
    });
    const kept = await createOrder(user.id, brand.id, { orderNumber: `KEPT-${path}` });
    await rolledBackOrderChanges(kept, `ROLLED-BACK-${path}`);
    await setStatus(kept.id, 'REJECTED');
    await until(() => receivedAt(path).length === 2, 'the committed events');
    expect(receivedAt(path).map(queryOf)).toEqual([
      { order: `KEPT-${path}`, status: 'PENDING' },
      { order: `KEPT-${path}`, status: 'REJECTED' },
    ]);
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(2);
  });

  test.each([
    'a&status=rejected&payout=999',
    'x=1',
    'before#after',
    'two words+plus',
    'Ünïcödé ✓ 日本',
    '%26%3D',
    '/../admin?',
  ])('a sub-ID of %j cannot add or change a parameter or the path', async (sub1) => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    await createPostback(token, {
      name: 'encoding',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}/{sub1}?subid={sub1}&status={status}&payout={payout}`,
    });
    await createOrder(user.id, brand.id, { sub1 });
    await until(() => receivedAt(path).length === 1, 'the postback');
    const [sent] = receivedAt(path);
    expect(queryOf(sent!)).toEqual({ subid: sub1, status: 'PENDING', payout: '5.00' });
    const segments = sent!.path.split('/');
    expect(segments).toHaveLength(3);
    expect(decodeURIComponent(segments[2]!)).toBe(sub1);
  });

  test('a POST carries a form or a JSON body, each value encoded for it', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const [formPath, jsonPath] = [uniquePath(), uniquePath()];
    await createPostback(token, {
      name: 'form',
      events: ['order.created'],
      method: 'POST',
      urlTemplate: `${tracker.url}/${formPath}`,
      bodyFormat: 'FORM',
      bodyTemplate: 'clickid={sub1}&sum={sale_amount}&at={ordered_at_unix}',
    });
    await createPostback(token, {
      name: 'json',
      events: ['order.created'],
      method: 'POST',
      urlTemplate: `${tracker.url}/${jsonPath}`,
      bodyFormat: 'JSON',
      bodyTemplate: '{"clickid":"{sub1}","amount":{"value":"{payout}","currency":"{currency}"}}',
    });
    const sub1 = 'a&b="c"';
    const orderedAt = new Date('2026-03-01T12:00:00.000Z');
    await createOrder(user.id, brand.id, { sub1, orderedAt });
    await until(() => receivedAt(formPath).length + receivedAt(jsonPath).length === 2, 'both');
    const [form] = receivedAt(formPath);
    expect(form!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(form!.body))).toEqual({
      clickid: sub1,
      sum: '100.00',
      at: String(orderedAt.getTime() / 1000),
    });
    const [json] = receivedAt(jsonPath);
    expect(json!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json!.body)).toEqual({
      clickid: sub1,
      amount: { value: '5.00', currency: 'EUR' },
    });
  });

  test('a scope limits the orders: a brand’s, a campaign’s (through the order’s link or code), a link’s', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const otherBrand = await createBrand();
    const campaign = await createCampaign(brand.id);
    const coupon = await createCampaign(brand.id, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(coupon.id, user.id, 'Mila-10');
    const campaignLink = await createLink(user.id, brand.id, { campaignId: campaign.id });
    const plainLink = await createLink(user.id, brand.id);
    const paths = {
      brand: uniquePath(),
      campaign: uniquePath(),
      coupon: uniquePath(),
      link: uniquePath(),
    };
    const scoped = (path: string, scope: Record<string, string>) =>
      createPostback(token, {
        name: path,
        events: ['order.created'],
        urlTemplate: `${tracker.url}/${path}?n={order_number}&campaign={campaign_id}&link={link_code}&coupon={coupon}&by={attribution}`,
        scope,
      });
    await scoped(paths.brand, { brandId: brand.id });
    await scoped(paths.campaign, { campaignId: campaign.id });
    await scoped(paths.coupon, { campaignId: coupon.id });
    await scoped(paths.link, { linkCode: plainLink.urlCode });
    const tag = uniquePath();
    await createOrder(user.id, brand.id, {
      orderNumber: `${tag}-1`,
      shortUrlCode: campaignLink.urlCode,
    });
    await createOrder(user.id, brand.id, {
      orderNumber: `${tag}-2`,
      shortUrlCode: plainLink.urlCode,
    });
    await createOrder(user.id, brand.id, { orderNumber: `${tag}-3` });
    await createOrder(user.id, otherBrand.id, { orderNumber: `${tag}-4` });
    await createOrder(user.id, brand.id, { orderNumber: `${tag}-5`, couponCode: 'mila-10 ' });
    await until(
      () => Object.values(paths).reduce((sum, path) => sum + receivedAt(path).length, 0) === 7,
      'the scoped postbacks',
    );
    const numbers = (path: string) =>
      receivedAt(path)
        .map((sent) => sent.query.get('n'))
        .sort();
    expect(numbers(paths.brand)).toEqual([`${tag}-1`, `${tag}-2`, `${tag}-3`, `${tag}-5`]);
    expect(receivedAt(paths.campaign).map(queryOf)).toEqual([
      { n: `${tag}-1`, campaign: campaign.id, link: campaignLink.urlCode, coupon: '', by: 'LINK' },
    ]);
    expect(receivedAt(paths.coupon).map(queryOf)).toEqual([
      { n: `${tag}-5`, campaign: coupon.id, link: '', coupon: 'MILA-10', by: 'COUPON' },
    ]);
    expect(numbers(paths.link)).toEqual([`${tag}-2`]);
  });

  test('the tracker down for a while: delivered later, each order’s events still in order; the deliveries show every attempt', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'down',
      events: ORDER_EVENTS,
      urlTemplate: `${tracker.url}/${path}?status={status}&attempt={attempt}&api_key={secret}`,
      secret: 'tracker-secret-1',
    });
    // The tracker answers its first two requests 503, then as usual.
    let failures = 2;
    const answer = tracker.answer;
    tracker.answer = (sent) =>
      sent.path === `/${path}` && failures-- > 0 ? { status: 503, body: 'busy' } : answer(sent);
    const order = await createOrder(user.id, brand.id);
    await until(() => receivedAt(path).length >= 1, 'a first attempt');
    await setStatus(order.id, 'APPROVED');
    await until(async () => {
      const deliveries = await deliveriesOf(token, postback.id, { state: 'DELIVERED' });
      return deliveries.length === 2;
    }, 'both delivered');
    tracker.answer = answer;
    // The status change waited behind the undelivered creation.
    expect(
      receivedAt(path).map((sent) => [sent.query.get('status'), sent.query.get('attempt')]),
    ).toEqual([
      ['PENDING', '1'],
      ['PENDING', '2'],
      ['PENDING', '3'],
      ['APPROVED', '1'],
    ]);

    const [approved, created] = await deliveriesOf(token, postback.id);
    expect(created).toMatchObject({
      postbackId: postback.id,
      event: 'order.created',
      orderId: order.id,
      status: 'PENDING',
      state: 'DELIVERED',
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
    });
    expect(approved).toMatchObject({ event: 'order.status_changed', status: 'APPROVED' });
    // Newest first: the delivery, after the 503s. The request as sent, its secret redacted.
    const attempts = created!.attempts;
    expect(attempts[0]).toEqual({
      attemptedAt: expect.any(String),
      request: {
        method: 'GET',
        url: `${tracker.url}/${path}?status=PENDING&attempt=3&api_key=REDACTED`,
        body: null,
      },
      statusCode: 200,
      responseBody: 'OK',
      durationMs: expect.any(Number),
      error: null,
    });
    expect(attempts.at(-1)).toMatchObject({
      request: { url: `${tracker.url}/${path}?status=PENDING&attempt=1&api_key=REDACTED` },
      statusCode: 503,
      responseBody: 'busy',
      error: 'answered HTTP 503',
    });
    // The secret went to the tracker, and nowhere in what its owner is shown.
    expect(receivedAt(path)[0]!.query.get('api_key')).toBe('tracker-secret-1');
    const shown = JSON.stringify(await deliveriesOf(token, postback.id));
    expect(shown).not.toContain('tracker-secret-1');
    // Filters: since, and state.
    expect(await deliveriesOf(token, postback.id, { state: 'FAILED' })).toEqual([]);
    expect(
      await deliveriesOf(token, postback.id, {
        since: new Date(Date.now() + 60_000).toISOString(),
      }),
    ).toEqual([]);
  });

  test('a success text: a 2xx without it is a failed attempt, retried', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'keitaro-like',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}?subid={sub1}`,
      successText: 'OK',
    });
    let answers = 0;
    const answer = tracker.answer;
    tracker.answer = (sent) =>
      sent.path === `/${path}` && (answers += 1) === 1
        ? { status: 200, body: 'no such subid' }
        : answer(sent);
    await createOrder(user.id, brand.id);
    await until(
      async () => (await deliveriesOf(token, postback.id, { state: 'DELIVERED' })).length === 1,
      'delivered',
    );
    tracker.answer = answer;
    const [delivery] = await deliveriesOf(token, postback.id);
    expect(
      delivery!.attempts.map((attempt: { statusCode: number; error: string | null }) => [
        attempt.statusCode,
        attempt.error,
      ]),
    ).toEqual([
      [200, null],
      [200, 'answered HTTP 200 without "OK"'],
    ]);
  });

  test('retries exhausted: the postback is failing, then disabled with the reason; redelivered once it works', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'failing',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}?n={order_number}&attempt={attempt}&delivery={delivery_id}`,
    });
    let isFailing = true;
    const answer = tracker.answer;
    tracker.answer = (sent) =>
      isFailing && sent.path === `/${path}` ? { status: 500, body: 'down' } : answer(sent);
    const stateOf = async () =>
      ((await graphql(LIST, {}, { token })).body.data.listPostbacks as Postback[])[0]!;
    await createOrder(user.id, brand.id, { orderNumber: `${path}-1` });
    await until(async () => (await stateOf()).failingSince !== null, 'failing', 30_000);
    expect(await stateOf()).toMatchObject({ enabled: true, disabledAt: null });
    // As if it had been failing for a day: the next delivery that fails for good disables it.
    const dayAgo = new Date(Date.now() - 86_400_000);
    await prisma.postback.update({ where: { id: postback.id }, data: { failingSince: dayAgo } });
    await createOrder(user.id, brand.id, { orderNumber: `${path}-2` });
    await until(async () => (await stateOf()).enabled === false, 'disabled', 30_000);
    expect(await stateOf()).toMatchObject({
      failingSince: dayAgo.toISOString(),
      disabledAt: expect.any(String),
      disabledReason: `Every delivery failed since ${dayAgo.toISOString()}; enable it again with updatePostback`,
    });
    const deliveries = await deliveriesOf(token, postback.id);
    expect(deliveries.map((delivery) => [delivery.state, delivery.attemptCount])).toEqual([
      ['FAILED', 3],
      ['FAILED', 3],
    ]);
    // While disabled, events are not recorded for it.
    await createOrder(user.id, brand.id, { orderNumber: `${path}-3` });
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(2);

    isFailing = false;
    const first = deliveries[1]!;
    const redelivered = await graphql(REDELIVER, { id: first.id }, { token });
    expect(redelivered.body.data.redeliverPostback).toMatchObject({
      id: first.id,
      state: 'PENDING',
      attemptCount: 0,
    });
    const sentBefore = receivedAt(path).length;
    await graphql(UPDATE, { id: postback.id, input: { enabled: true } }, { token });
    await until(() => receivedAt(path).length === sentBefore + 1, 'the redelivery');
    tracker.answer = answer;
    const sentAgain = receivedAt(path).at(-1)!;
    // {delivery_id} stays; {attempt} starts again.
    expect(queryOf(sentAgain)).toEqual({ n: `${path}-1`, attempt: '1', delivery: first.id });
    await until(async () => (await stateOf()).failingSince === null, 'recovered');
    expect(await stateOf()).toMatchObject({ enabled: true, disabledReason: null });
  });

  test('the address is checked again at delivery, after DNS, and the request goes to the address checked', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const [pinnedPath, reboundPath] = [uniquePath(), uniquePath()];
    const port = new URL(tracker.url).port;
    const pinned = await createPostback(token, {
      name: 'pinned',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${pinnedPath}?n={order_number}`,
    });
    const rebound = await createPostback(token, {
      name: 'rebound',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${reboundPath}?n={order_number}`,
    });
    // As if DNS changed after the postbacks were saved.
    await prisma.postback.update({
      where: { id: pinned.id },
      data: { urlTemplate: `http://pinned.test:${port}/${pinnedPath}?n={order_number}` },
    });
    await prisma.postback.update({
      where: { id: rebound.id },
      data: { urlTemplate: `http://rebound.test:${port}/${reboundPath}?n={order_number}` },
    });
    const order = await createOrder(user.id, brand.id);
    await until(() => receivedAt(pinnedPath).length === 1, 'the pinned delivery');
    expect(receivedAt(pinnedPath)[0]!.headers.host).toBe(`pinned.test:${port}`);
    await until(
      async () => (await deliveriesOf(token, rebound.id))[0]?.attempts.length > 0,
      'the refused attempt',
    );
    const [attempt] = (await deliveriesOf(token, rebound.id))[0]!.attempts;
    expect(attempt).toMatchObject({
      request: { url: `http://rebound.test:${port}/${reboundPath}?n=${order.orderNumber}` },
      statusCode: null,
      error: 'not sent: the host rebound.test resolves to a metadata address',
    });
    expect(receivedAt(reboundPath)).toEqual([]);
  });

  test('sendTestPostback renders a real order, or the documented sample, sends it now and answers what the tracker said', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'test send',
      events: ['order.status_changed'],
      urlTemplate: `${tracker.url}/${path}?subid={sub1}&event={event}&status={status}&token={secret}`,
      statusMap: { APPROVED: 'sale' },
      successText: 'OK',
      secret: 'never-shown-secret',
    });
    const order = await createOrder(user.id, brand.id, { sub1: 'real-click', status: 'APPROVED' });
    const real = await graphql(SEND_TEST, { id: postback.id, orderId: order.id }, { token });
    expect(real.body.data.sendTestPostback).toEqual({
      orderId: order.id,
      request: {
        method: 'GET',
        url: `${tracker.url}/${path}?subid=real-click&event=postback.test&status=sale&token=REDACTED`,
        body: null,
      },
      statusCode: 200,
      responseBody: 'OK',
      durationMs: expect.any(Number),
      error: null,
      delivered: true,
    });
    const sample = await graphql(SEND_TEST, { id: postback.id }, { token });
    expect(sample.body.data.sendTestPostback).toMatchObject({
      orderId: null,
      request: {
        url: `${tracker.url}/${path}?subid=sample-click-id&event=postback.test&status=sale&token=REDACTED`,
      },
      delivered: true,
    });
    expect(receivedAt(path).map(queryOf)).toEqual([
      { subid: 'real-click', event: 'postback.test', status: 'sale', token: 'never-shown-secret' },
      {
        subid: 'sample-click-id',
        event: 'postback.test',
        status: 'sale',
        token: 'never-shown-secret',
      },
    ]);
    // A test is no delivery: nothing is recorded.
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(0);
    // An address refused at sending is answered, not sent (a documentation address).
    await prisma.postback.update({
      where: { id: postback.id },
      data: { urlTemplate: 'https://192.0.2.10/postback?subid={sub1}' },
    });
    const refused = await graphql(SEND_TEST, { id: postback.id }, { token });
    expect(refused.body.data.sendTestPostback).toMatchObject({
      statusCode: null,
      error: 'not sent: the host 192.0.2.10 resolves to a reserved address',
      delivered: false,
    });
  });

  test('replayPostbacks sends exactly the window’s orders of the scope once, as they are now; a repeated call queues nothing twice', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const other = await affiliateWithBrand();
    const since = new Date('2026-02-01T00:00:00.000Z');
    const until_ = new Date('2026-02-08T00:00:00.000Z');
    const at = (iso: string) => new Date(iso);
    const tag = uniquePath();
    const order = (n: number, orderedAt: Date, data = {}) =>
      createOrder(user.id, brand.id, { orderNumber: `${tag}-${n}`, orderedAt, ...data });
    await order(1, at('2026-01-31T23:59:59.999Z'));
    const inside = [
      await order(2, since),
      await order(3, at('2026-02-03T10:00:00.000Z'), { status: 'APPROVED' }),
      await order(4, at('2026-02-07T23:59:59.999Z'), { status: 'REJECTED' }),
    ];
    await order(5, until_);
    await createOrder(user.id, (await createBrand()).id, {
      orderNumber: `${tag}-other-brand`,
      orderedAt: at('2026-02-03T00:00:00.000Z'),
    });
    await createOrder(other.user.id, other.brand.id, {
      orderNumber: `${tag}-other-affiliate`,
      orderedAt: at('2026-02-03T00:00:00.000Z'),
    });
    // The postback comes after the orders (a new tracker to fill), paused while replays queue.
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'replay',
      events: ORDER_EVENTS,
      urlTemplate: `${tracker.url}/${path}?n={order_number}&event={event}&status={status}`,
      scope: { brandId: brand.id },
    });
    await graphql(UPDATE, { id: postback.id, input: { enabled: false } }, { token });
    const window = { id: postback.id, since: since.toISOString(), until: until_.toISOString() };
    const firstReplay = { queued: 3, alreadyQueued: 0 };
    const first = await graphql(REPLAY, window, { token });
    expect(first.body.data.replayPostbacks).toEqual({ ...firstReplay, repeated: false });
    // A repeated call answers the first replay of the window and sends nothing.
    const again = await graphql(REPLAY, window, { token });
    expect(again.body.data.replayPostbacks).toEqual({ ...firstReplay, repeated: true });
    // Forced while the first still waits: an order whose replay waits is not queued twice.
    const forced = await graphql(REPLAY, { ...window, force: true }, { token });
    expect(forced.body.data.replayPostbacks).toEqual({
      queued: 0,
      alreadyQueued: 3,
      repeated: false,
    });
    await graphql(UPDATE, { id: postback.id, input: { enabled: true } }, { token });
    await until(
      async () => (await deliveriesOf(token, postback.id, { state: 'DELIVERED' })).length === 3,
      'the replay',
    );
    expect(
      receivedAt(path)
        .map(queryOf)
        .sort((a, b) => a.n!.localeCompare(b.n!)),
    ).toEqual([
      { n: `${tag}-2`, event: 'postback.replay', status: 'PENDING' },
      { n: `${tag}-3`, event: 'postback.replay', status: 'APPROVED' },
      { n: `${tag}-4`, event: 'postback.replay', status: 'REJECTED' },
    ]);
    expect(new Set(receivedAt(path).map((sent) => sent.query.get('n'))).size).toBe(inside.length);
    // Delivered, and asked again: still nothing sent, unless forced.
    expect((await graphql(REPLAY, window, { token })).body.data.replayPostbacks).toEqual({
      ...firstReplay,
      repeated: true,
    });
    expect(
      (await graphql(REPLAY, { ...window, force: true }, { token })).body.data.replayPostbacks,
    ).toEqual({ queued: 3, alreadyQueued: 0, repeated: false });
    await until(() => receivedAt(path).length === 6, 'the forced replay');
  });

  test('six replays of one window asked at once send each order once', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const orderedAt = new Date('2026-03-02T10:00:00.000Z');
    const orders = [];
    for (let n = 0; n < 8; n++) orders.push(await createOrder(user.id, brand.id, { orderedAt }));
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'replay at once',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}?n={order_number}&event={event}`,
    });
    const window = {
      id: postback.id,
      since: '2026-03-01T00:00:00Z',
      until: '2026-03-03T00:00:00Z',
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => graphql(REPLAY, window, { token })),
    );
    expect(answers.map(({ body }) => body.data.replayPostbacks.repeated).sort()).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    await until(
      async () => (await deliveriesOf(token, postback.id, { state: 'DELIVERED' })).length === 8,
      'the replay',
    );
    const replayed = receivedAt(path).filter(
      (sent) => sent.query.get('event') === 'postback.replay',
    );
    expect(replayed.map((sent) => sent.query.get('n')).sort()).toEqual(
      orders.map((order) => order.orderNumber).sort(),
    );
  });

  test('a replay is not held by a delivery that failed for good, and is bounded', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'after failure',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}?event={event}`,
    });
    const failed = await createOrder(user.id, brand.id, {
      orderedAt: new Date('2026-02-02T00:00:00Z'),
    });
    // As if every retry of its creation had failed.
    await until(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { postbackId: postback.id, state: 'DELIVERED' },
        })) === 1,
      'the first delivery',
    );
    await prisma.webhookDelivery.updateMany({
      where: { postbackId: postback.id },
      data: { state: 'FAILED' },
    });
    const window = {
      id: postback.id,
      since: '2026-02-01T00:00:00Z',
      until: '2026-02-03T00:00:00Z',
    };
    expect((await graphql(REPLAY, window, { token })).body.data.replayPostbacks).toEqual({
      queued: 1,
      alreadyQueued: 0,
      repeated: false,
    });
    // The tracker answers before the delivery is recorded as delivered: wait for the record.
    await until(
      async () =>
        (await deliveriesOf(token, postback.id, { state: 'DELIVERED' })).some(
          (delivery) => delivery.event === 'postback.replay',
        ),
      'the replay',
    );
    expect(receivedAt(path).map((sent) => sent.query.get('event'))).toContain('postback.replay');
    expect(
      (await deliveriesOf(token, postback.id)).map((d) => [d.event, d.orderId, d.state]),
    ).toEqual([
      ['postback.replay', failed.id, 'DELIVERED'],
      ['order.created', failed.id, 'FAILED'],
    ]);

    // More orders than a replay may send (recorded while the postback is paused): refused,
    // nothing queued.
    await graphql(UPDATE, { id: postback.id, input: { enabled: false } }, { token });
    await prisma.$executeRaw`
      INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
        "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt")
      SELECT gen_random_uuid(), ${path} || '-' || n, ${user.id}::uuid, ${brand.id}::uuid, 'PENDING',
        'EUR', 1000, 500, 50, '2025-06-01T00:00:00Z'::timestamp
      FROM generate_series(1, ${MAX_REPLAYED_ORDERS + 1}) AS n`;
    const before = await prisma.webhookDelivery.count({ where: { postbackId: postback.id } });
    const bounded = await graphql(
      REPLAY,
      { id: postback.id, since: '2025-06-01T00:00:00Z', until: '2025-06-02T00:00:00Z' },
      { token },
    );
    expect(bounded.body.errors[0]).toMatchObject({
      message:
        'The window holds more than 1000 orders: replay shorter windows, one after the other',
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(await prisma.webhookDelivery.count({ where: { postbackId: postback.id } })).toBe(before);
    const backwards = await graphql(
      REPLAY,
      { ...window, since: window.until, until: window.since },
      { token },
    );
    expect(backwards.body.errors[0].message).toBe('since must be before until');
  });

  test('deliveries count against no quota: the affiliate’s key and dashboard keep theirs', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
    const remaining = async () =>
      Number(
        (await call('/affiliate/orders', { key: apiKey })).headers.get('x-ratelimit-remaining'),
      );
    const dashboardRemaining = async () =>
      Number((await graphql(LIST, {}, { token })).headers.get('x-ratelimit-remaining'));
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'quota',
      events: ORDER_EVENTS,
      urlTemplate: `${tracker.url}/${path}?n={order_number}`,
    });
    const [key, dashboard] = [await remaining(), await dashboardRemaining()];
    for (let n = 0; n < 5; n += 1) await createOrder(user.id, brand.id);
    await until(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { postbackId: postback.id, state: 'DELIVERED' },
        })) === 5,
      'five deliveries',
    );
    expect([await remaining(), await dashboardRemaining()]).toEqual([key - 1, dashboard - 1]);
  });

  test('attempts are counted by outcome at GET /metrics, never by postback or URL', async () => {
    const { user, token, brand } = await affiliateWithBrand();
    const path = uniquePath();
    const postback = await createPostback(token, {
      name: 'metrics',
      events: ['order.created'],
      urlTemplate: `${tracker.url}/${path}?n={order_number}`,
    });
    const delivered = await metricNow('postback_delivery_attempts_total', { outcome: 'delivered' });
    await createOrder(user.id, brand.id);
    await until(
      async () =>
        (await metricNow('postback_delivery_attempts_total', { outcome: 'delivered' })) > delivered,
      'the counted attempt',
    );
    const text = await scrape();
    expect(text).toMatch(/^postback_delivery_attempts_total\{outcome="delivered"\} \d+$/m);
    expect(text).toMatch(/^postback_deliveries_pending \d+$/m);
    expect(text).toMatch(/^postback_delivery_duration_seconds_count \d+$/m);
    for (const unbounded of [postback.id, path, tracker.url]) expect(text).not.toContain(unbounded);
  });
});

describe('the address guard at delivery, where private addresses are not allowed (production)', () => {
  test('a name that resolves to a private or loopback address since it was saved is not sent to', async () => {
    // This dispatcher resolves two names of its own and never connects to what they name.
    const strict = startDeliveryDispatcher(postbackLane, {
      ...DISPATCH,
      allowPrivateUrls: false,
      resolve: async (hostname) => {
        if (hostname === 'private.test') return [{ address: '10.1.2.3', family: 4 }];
        if (hostname === 'loopback.test') return [{ address: '127.0.0.1', family: 4 }];
        throw new Error(`no address for ${hostname} in this test`);
      },
    });
    try {
      const { user, token } = await affiliateDashboard();
      // Saved as if the names were public then (a save resolves them, and refuses these).
      const postbacks = await Promise.all(
        ['private', 'loopback'].map((name) =>
          prisma.postback.create({
            data: {
              ownerId: user.id,
              name,
              events: ['order.created'],
              method: 'GET',
              urlTemplate: `https://${name}.test/postback?n={order_number}`,
              statusMap: {},
            },
          }),
        ),
      );
      await createOrder(user.id, (await createBrand()).id);
      const attemptOf = async (postbackId: string) =>
        (await graphql(DELIVERIES, { id: postbackId }, { token })).body.data.postbackDeliveries[0]
          ?.attempts[0];
      await until(
        async () => (await attemptOf(postbacks[0]!.id)) && (await attemptOf(postbacks[1]!.id)),
        'both attempts',
      );
      expect(await attemptOf(postbacks[0]!.id)).toMatchObject({
        statusCode: null,
        durationMs: 0,
        error: 'not sent: the host private.test resolves to a private address',
      });
      expect(await attemptOf(postbacks[1]!.id)).toMatchObject({
        statusCode: null,
        error: 'not sent: the host loopback.test resolves to a loopback address',
      });
    } finally {
      await strict.stop();
    }
  });
});

describe('what a list of deliveries may ask for', () => {
  /** A postback with `deliveries` failed deliveries of 5 attempts each, every stored text at its largest. */
  async function postbackWithFullHistory(deliveries: number) {
    const { user, token } = await affiliateDashboard();
    const postback = await prisma.postback.create({
      data: {
        ownerId: user.id,
        name: 'full',
        events: ORDER_EVENTS,
        method: 'POST',
        urlTemplate: `${tracker.url}/full`,
        statusMap: {},
      },
    });
    for (let d = 0; d < deliveries; d++) {
      const event = await prisma.webhookEvent.create({ data: { type: 'order.created' } });
      const delivery = await prisma.webhookDelivery.create({
        data: { eventId: event.id, postbackId: postback.id, seq: event.seq, state: 'FAILED' },
      });
      await prisma.webhookAttempt.createMany({
        data: Array.from({ length: MAX_LISTED_POSTBACK_ATTEMPTS }, (_, n) => ({
          deliveryId: delivery.id,
          attemptedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, d, n)),
          statusCode: 500,
          durationMs: n,
          error: 'answered HTTP 500',
          requestMethod: 'POST',
          requestUrl: `${tracker.url}/full?v=${'u'.repeat(RENDERED_URL_MAX - 40)}`,
          requestBody: 'b'.repeat(RENDERED_BODY_MAX),
          responseBody: 'r'.repeat(RESPONSE_BODY_MAX_BYTES),
        })),
      });
    }
    return { token, postbackId: postback.id };
  }

  test('every stored request and answer of 100 deliveries is refused by its cost before any resolver; their URLs alone, or the default 20 deliveries, are answered', async () => {
    const { token, postbackId } = await postbackWithFullHistory(MAX_LISTED_POSTBACK_DELIVERIES);
    const list = (attempt: string) =>
      `{ postbackDeliveries(postbackId: "${postbackId}", limit: ${MAX_LISTED_POSTBACK_DELIVERIES}) {
        id attempts { ${attempt} } } }`;
    const deliveries = jest.spyOn(prisma.webhookDelivery, 'findMany');
    try {
      const everything = await call('/graphql', {
        token,
        body: { query: list('request { method url body } responseBody') },
      });
      expect(everything.status).toBe(400);
      expect(everything.body.errors[0]).toEqual({
        message: expect.stringMatching(/^Operation cost limit of \d+ exceeded, found \d+\.$/),
        extensions: { code: 'BAD_REQUEST' },
      });
      expect(deliveries).not.toHaveBeenCalled();
    } finally {
      deliveries.mockRestore();
    }
    const urls = await call('/graphql', { token, body: { query: list('request { url }') } });
    expect(urls.status).toBe(200);
    expect(urls.body.data.postbackDeliveries).toHaveLength(MAX_LISTED_POSTBACK_DELIVERIES);
    const firstPage = await call('/graphql', {
      token,
      body: {
        query: `{ postbackDeliveries(postbackId: "${postbackId}") {
          attempts { request { method url body } responseBody } } }`,
      },
    });
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.data.postbackDeliveries).toHaveLength(20);
  });
});
