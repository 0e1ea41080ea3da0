// The object and input types of postbacks. No type carries a postback's secret: `hasSecret` says
// whether it has one, and rendered requests show it redacted.
import {
  OrderStatus,
  PostbackBodyFormat,
  PostbackMethod,
  PostbackPayoutRule as PayoutRule,
} from '../../../generated/prisma/client';
import { builder } from '../../../schema/builder';
import { RESPONSE_BODY_MAX_BYTES } from '../../../outbox/send';
import { listOf, storedTextOf } from '../../../schema/complexity';
import { DeliveryTarget, deliveryScheduleFields } from '../../../schema/deliveryTargets';
import { MAX_URL_LENGTH } from '../../../schema/inputLimits';
import type { ShownRequest } from '../../../outbox/lane';
import type { Replay } from '../replay';
import type { TestSent } from '../testSend';
import { POSTBACK_EVENT_TYPES } from '../eventTypes';
import { MACRO_NAMES } from '../macros';
import { PRESETS, TRACKERS, type PresetSettings, type Tracker } from '../presets';
import {
  BODY_TEMPLATE_MAX,
  RENDERED_BODY_MAX,
  RENDERED_URL_MAX,
  URL_TEMPLATE_MAX,
} from '../request';
import { ORDER_STATUSES, STATUS_MAP_KEYS, statusMapOf, typeMapOf } from '../settings';
import { SECRET_MAX, WORD_MAX } from './rules';

const EVENTS_NOTE = `Event types: ${POSTBACK_EVENT_TYPES.join(', ')}`;
const MACROS_NOTE = `Macros: ${MACRO_NAMES.map((name) => `{${name}}`).join(' ')}`;

builder.enumType(PostbackMethod, { name: 'PostbackMethod' });
builder.enumType(PostbackBodyFormat, {
  name: 'PostbackBodyFormat',
  description: 'FORM: application/x-www-form-urlencoded; JSON: application/json',
});
export const PostbackTracker = builder.enumType('PostbackTracker', {
  description: 'A tracker with a preset (docs/postbacks.md lists what each writes, and its source)',
  values: TRACKERS,
});
export const PostbackDeliveryState = builder.enumType('PostbackDeliveryState', {
  description:
    'PENDING: not yet delivered (retries scheduled); DELIVERED: the tracker answered 2xx (with ' +
    'the success text where one is set); FAILED: every retry failed (redeliverPostback sends it again)',
  values: ['PENDING', 'DELIVERED', 'FAILED'] as const,
});

export const PostbackPayoutRule = builder.enumType(PayoutRule, {
  name: 'PostbackPayoutRule',
  description:
    "What {payout} is. EARNINGS: the order's earnings whatever its status. OWED: the earnings while APPROVED or PAID, 0 while PENDING or REJECTED (what the affiliate is owed; for trackers that count every conversion's payout). OWED_REVERSED: as OWED, but a REJECTED order's is the negative of its earnings (for trackers that add up every postback's payout)",
});

const STATUS_WORD: Record<(typeof STATUS_MAP_KEYS)[number], string> = {
  PENDING: "The tracker's word for PENDING; null: sent as PENDING",
  APPROVED: "The tracker's word for APPROVED; null: sent as APPROVED",
  REJECTED: "The tracker's word for REJECTED; null: sent as REJECTED",
  PAID: "The tracker's word for PAID; null: sent as PAID",
  UNAPPROVED:
    "The word for an approved or paid order moved back to PENDING, for a tracker that cannot take PENDING's word after an approval; null: PENDING's",
};
const TYPE_WORD = (status: OrderStatus) =>
  `The tracker's conversion type for ${status}; null: {type} is empty`;

/** A map of words per key, as an output type and an input type. */
function wordMapTypes<Key extends string>(
  name: string,
  description: string,
  keys: readonly Key[],
  describe: (key: Key) => string,
) {
  const output = builder.objectRef<Partial<Record<Key, string>>>(name).implement({
    description,
    fields: (t) =>
      Object.fromEntries(
        keys.map((key) => [
          key,
          t.string({
            nullable: true,
            description: describe(key),
            resolve: (map) => map[key] ?? null,
          }),
        ]),
      ),
  });
  const input = builder.inputType(`${name}Input`, {
    description: `${description}; each word 1 to ${WORD_MAX} characters`,
    fields: (t) =>
      Object.fromEntries(keys.map((key) => [key, t.string({ description: describe(key) })])),
  });
  return { output, input };
}

const PostbackStatusMap = wordMapTypes(
  'PostbackStatusMap',
  "The tracker's word for each order status, sent as {status}",
  STATUS_MAP_KEYS,
  (key) => STATUS_WORD[key],
);
const PostbackTypeMap = wordMapTypes(
  'PostbackTypeMap',
  "The tracker's conversion type for each order status, sent as {type}",
  ORDER_STATUSES,
  TYPE_WORD,
);

const STATUSES_NOTE =
  'Only events that leave the order in one of these statuses are sent (replays too); empty: every status';

builder.prismaObject('Postback', {
  description:
    "An affiliate's postback: a request in their tracker's format for each order event it takes",
  interfaces: [DeliveryTarget],
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    events: t.exposeStringList('events', { description: EVENTS_NOTE }),
    statuses: t.field({
      type: [OrderStatus],
      description: STATUSES_NOTE,
      select: { statuses: true },
      resolve: (postback) => postback.statuses,
    }),
    brandId: t.exposeID('brandId', { nullable: true, description: 'Only this brand’s orders' }),
    campaignId: t.exposeID('campaignId', {
      nullable: true,
      description: 'Only the orders of links to this campaign',
    }),
    linkCode: t.exposeString('linkCode', {
      nullable: true,
      description: 'Only the orders of this short link',
    }),
    method: t.expose('method', { type: PostbackMethod }),
    urlTemplate: t.exposeString('urlTemplate', { description: MACROS_NOTE }),
    bodyFormat: t.expose('bodyFormat', { type: PostbackBodyFormat, nullable: true }),
    bodyTemplate: t.exposeString('bodyTemplate', { nullable: true }),
    statusMap: t.field({
      type: PostbackStatusMap.output,
      select: { statusMap: true },
      resolve: (postback) => statusMapOf(postback.statusMap),
    }),
    typeMap: t.field({
      type: PostbackTypeMap.output,
      select: { typeMap: true },
      resolve: (postback) => typeMapOf(postback.typeMap),
    }),
    payoutRule: t.expose('payoutRule', { type: PostbackPayoutRule }),
    successText: t.exposeString('successText', {
      nullable: true,
      description: 'A 2xx counts only if the answer contains it',
    }),
    hasSecret: t.boolean({
      description: 'Whether the postback has a secret for {secret} (it is never shown)',
      select: { secret: true },
      resolve: (postback) => postback.secret !== null,
    }),
  }),
});

/** A request as its owner is shown it. */
export const PostbackRequest = builder.objectRef<ShownRequest>('PostbackRequest').implement({
  description:
    'A rendered request, its secrets redacted: the {secret} macro and the values of parameters named like a secret (token, key, secret, password, signature, auth ...)',
  fields: (t) => ({
    method: t.exposeString('method'),
    // Priced by size, as sent: a URL is ASCII that JSON writes as it is; a JSON body's quotes and
    // backslashes are written escaped, twice its bytes at most.
    url: t.exposeString('url', { complexity: storedTextOf(RENDERED_URL_MAX) }),
    body: t.exposeString('body', {
      nullable: true,
      complexity: storedTextOf(2 * RENDERED_BODY_MAX),
    }),
  }),
});

/** The newest attempts each listed delivery shows. */
export const MAX_LISTED_POSTBACK_ATTEMPTS = 5;

const PostbackAttempt = builder.prismaObject('WebhookAttempt', {
  variant: 'PostbackAttempt',
  description: "One HTTP attempt of a postback delivery, and the start of the tracker's answer",
  select: { id: true },
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    request: t.field({
      type: PostbackRequest,
      nullable: true,
      description: 'The request sent; null when none could be built',
      select: { requestMethod: true, requestUrl: true, requestBody: true },
      resolve: (attempt) =>
        attempt.requestMethod === null || attempt.requestUrl === null
          ? null
          : { method: attempt.requestMethod, url: attempt.requestUrl, body: attempt.requestBody },
    }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: "The tracker's HTTP status; null when no answer came",
    }),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description: "The start of the tracker's answer (at most 4 KiB, as JSON writes it)",
      complexity: storedTextOf(RESPONSE_BODY_MAX_BYTES),
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why it failed; null when it delivered',
    }),
  }),
});

export const PostbackDelivery = builder.prismaObject('WebhookDelivery', {
  variant: 'PostbackDelivery',
  description: 'One order event sent to one postback, with its newest attempts',
  fields: (t) => ({
    id: t.exposeID('id', { description: '{delivery_id}: the same on every attempt' }),
    postbackId: t.id({
      select: { postbackId: true },
      // Read through their postback: every delivery listed here has one.
      resolve: (delivery) => delivery.postbackId!,
    }),
    event: t.string({
      description: '{event}',
      select: { event: { select: { type: true } } },
      resolve: (delivery) => delivery.event.type,
    }),
    orderId: t.exposeID('orderId', { nullable: true }),
    status: t.field({
      type: OrderStatus,
      nullable: true,
      description: 'The order status the delivery reports (before the status map)',
      select: { event: { select: { status: true } } },
      resolve: (delivery) => delivery.event.status,
    }),
    state: t.field({
      type: PostbackDeliveryState,
      select: { state: true },
      resolve: (delivery) => delivery.state,
    }),
    ...deliveryScheduleFields(t, 'redeliverPostback'),
    attempts: t.relation('attempts', {
      type: PostbackAttempt,
      description: `The newest ${MAX_LISTED_POSTBACK_ATTEMPTS}, newest first`,
      query: {
        orderBy: [{ attemptedAt: 'desc' as const }, { id: 'desc' as const }],
        take: MAX_LISTED_POSTBACK_ATTEMPTS,
      },
      complexity: listOf(MAX_LISTED_POSTBACK_ATTEMPTS),
    }),
  }),
});

export const PostbackTestResult = builder.objectRef<TestSent>('PostbackTestResult').implement({
  description: "What sendTestPostback sent and the tracker's answer",
  fields: (t) => ({
    orderId: t.exposeID('orderId', {
      nullable: true,
      description: 'The order rendered; null: the documented sample (docs/postbacks.md)',
    }),
    request: t.field({ type: PostbackRequest, resolve: (sent) => sent.request }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description: "The start of the tracker's answer (at most 4 KiB, as JSON writes it)",
      complexity: storedTextOf(RESPONSE_BODY_MAX_BYTES),
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
    delivered: t.exposeBoolean('delivered', {
      description: 'Whether a delivery would count this answer as delivered',
    }),
  }),
});

export const PostbackReplay = builder.objectRef<Replay>('PostbackReplay').implement({
  description:
    'A replay of a window: what replayPostbacks queued, or, for a repeated call, what the first call of the window (within a day) queued',
  fields: (t) => ({
    id: t.exposeID('id'),
    since: t.expose('since', { type: 'DateTime' }),
    until: t.expose('until', { type: 'DateTime' }),
    queued: t.exposeInt('queued', { description: 'Orders of the window queued' }),
    alreadyQueued: t.exposeInt('alreadyQueued', {
      description:
        'Orders of the window whose replay was still waiting to be delivered: not queued twice',
    }),
    requestedAt: t.expose('requestedAt', {
      type: 'DateTime',
      description: 'When the replay was asked for',
    }),
    repeated: t.exposeBoolean('repeated', {
      description:
        'true: this call repeated a replay of the same window asked within a day, and sent nothing (force: true sends it again)',
    }),
  }),
});

export const PostbackPreset = builder
  .objectRef<PresetSettings & { tracker: Tracker }>('PostbackPreset')
  .implement({
    description: "A tracker's postback settings, to save as they are or edited",
    fields: (t) => ({
      tracker: t.field({ type: PostbackTracker, resolve: (preset) => preset.tracker }),
      source: t.string({
        description: 'Where the tracker documents the parameters it reads',
        resolve: (preset) => PRESETS[preset.tracker].source,
      }),
      trackerSettings: t.string({
        description:
          "What to set on the tracker's side, and what the tracker will and will not show",
        resolve: (preset) => PRESETS[preset.tracker].trackerSettings,
      }),
      events: t.exposeStringList('events', { description: EVENTS_NOTE }),
      statuses: t.field({
        type: [OrderStatus],
        description: STATUSES_NOTE,
        resolve: (preset) => preset.statuses,
      }),
      method: t.expose('method', { type: PostbackMethod }),
      urlTemplate: t.exposeString('urlTemplate'),
      statusMap: t.field({ type: PostbackStatusMap.output, resolve: (preset) => preset.statusMap }),
      typeMap: t.field({ type: PostbackTypeMap.output, resolve: (preset) => preset.typeMap }),
      payoutRule: t.field({ type: PostbackPayoutRule, resolve: (preset) => preset.payoutRule }),
      successText: t.exposeString('successText', { nullable: true }),
      secret: t.exposeString('secret', {
        nullable: true,
        description: 'A key the base URL carried (Keitaro’s postback key), now {secret}',
      }),
    }),
  });

const URL_TEMPLATE_NOTE =
  'http(s) URL with macros after the host, at most 2,048 characters; https on a host whose every ' +
  'address is public (http and private addresses only where WEBHOOK_ALLOW_PRIVATE_URLS is set). ' +
  MACROS_NOTE;

export const PostbackScopeInput = builder.inputType('PostbackScopeInput', {
  description:
    'One of brandId, campaignId (the order’s campaign: its coupon code’s, else its link’s) or linkCode; none: every order',
  fields: (t) => ({
    brandId: t.id(),
    campaignId: t.id(),
    linkCode: t.string(),
  }),
});

export const PostbackPresetInput = builder.inputType('PostbackPresetInput', {
  fields: (t) => ({
    tracker: t.field({ type: PostbackTracker, required: true }),
    baseUrl: t.string({
      required: true,
      description: "The tracker's postback address, as the tracker shows it",
      extensions: { maxLength: MAX_URL_LENGTH },
    }),
    clickIdSubId: t.int({
      description: 'The sub-ID (1-5) the tracker’s click id rides in; default 1',
    }),
  }),
});

/** The fields a postback is created or updated with, beside name, events and scope. */
type InputFields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

const settingsFields = (t: InputFields) => ({
  method: t.field({ type: PostbackMethod, description: 'Default GET' }),
  urlTemplate: t.string({
    description: URL_TEMPLATE_NOTE,
    extensions: { maxLength: URL_TEMPLATE_MAX },
  }),
  bodyFormat: t.field({ type: PostbackBodyFormat, description: 'A POST’s body; none for a GET' }),
  bodyTemplate: t.string({
    description: `A FORM (a=b&c={sub1}) or JSON body (macros in its strings), at most ${BODY_TEMPLATE_MAX} characters`,
    extensions: { maxLength: BODY_TEMPLATE_MAX },
  }),
  statusMap: t.field({ type: PostbackStatusMap.input }),
  typeMap: t.field({ type: PostbackTypeMap.input }),
  payoutRule: t.field({ type: PostbackPayoutRule, description: 'Default EARNINGS' }),
  successText: t.string({
    description: `A 2xx counts only if the answer contains it (up to ${WORD_MAX} characters); empty: any 2xx`,
  }),
  secret: t.string({
    description: `The value of {secret} (up to ${SECRET_MAX} characters), never shown; empty removes it`,
  }),
});

export const CreatePostbackInput = builder.inputType('CreatePostbackInput', {
  description:
    'A postback; with `preset`, the preset fills events, statuses, method, urlTemplate, statusMap, typeMap, payoutRule, successText and secret, and the fields given here win',
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 100 characters' }),
    events: t.stringList({ description: `${EVENTS_NOTE}. Required without a preset` }),
    statuses: t.field({ type: [OrderStatus], description: STATUSES_NOTE }),
    scope: t.field({ type: PostbackScopeInput }),
    preset: t.field({ type: PostbackPresetInput }),
    ...settingsFields(t),
  }),
});

export const UpdatePostbackInput = builder.inputType('UpdatePostbackInput', {
  description: 'Only the fields given change; the postback is checked as a whole again',
  fields: (t) => ({
    name: t.string(),
    events: t.stringList({ description: EVENTS_NOTE }),
    statuses: t.field({
      type: [OrderStatus],
      description: `${STATUSES_NOTE}; [] for every status`,
    }),
    scope: t.field({
      type: PostbackScopeInput,
      description: 'Replaces the scope; {} for every order',
    }),
    ...settingsFields(t),
    enabled: t.boolean({
      description:
        'false pauses deliveries (they wait); true resumes them and clears a failing or disabled state',
    }),
  }),
});
