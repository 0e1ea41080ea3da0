// Presets for the trackers affiliates use most: from the tracker's postback address (its base URL,
// as the tracker shows it), the URL template with the parameters the tracker documents, the
// status map to its words, and what its answer must say. The affiliate can edit every part of the
// result. The parameters each preset writes, and their source, are in docs/postbacks.md. Pure.
import type {
  OrderStatus,
  PostbackMethod,
  PostbackPayoutRule,
} from '../../generated/prisma/client';
import type { PostbackEventType } from './eventTypes';
import type { MacroName, StatusMap, TypeMap } from './macros';
import { TemplateError } from './templates';

export const TRACKERS = ['KEITARO', 'VOLUUM', 'REDTRACK', 'BINOM'] as const;
export type Tracker = (typeof TRACKERS)[number];

/** What a preset fills in; the same fields a postback is saved with. */
export interface PresetSettings {
  events: PostbackEventType[];
  /** Empty: every status. */
  statuses: OrderStatus[];
  method: PostbackMethod;
  urlTemplate: string;
  statusMap: StatusMap;
  typeMap: TypeMap;
  payoutRule: PostbackPayoutRule;
  successText: string | null;
  /** A key the tracker's address carries (Keitaro's postback key), moved to `{secret}`. */
  secret: string | null;
}

/** The sub-IDs that are not the click id's, each with its number. */
const otherSubIds = (clickId: MacroName) =>
  [1, 2, 3, 4, 5].filter((n) => `sub${n}` !== clickId).map((n) => [n, `{sub${n}}`] as const);

/** What each order event is sent as: a new status, or new amounts in the same status. */
const EVERY_CHANGE: PostbackEventType[] = [
  'order.created',
  'order.status_changed',
  'order.adjusted',
];

interface Preset extends Omit<PresetSettings, 'method' | 'urlTemplate' | 'secret'> {
  /** Where the tracker documents the postback it receives. */
  source: string;
  /** What the affiliate sets on the tracker's side, and what the tracker will and will not show. */
  trackerSettings: string;
  /** The tracker's parameters in order, each with its value's template. */
  parameters: (clickId: MacroName) => [string, string][];
  /** A path segment of the base URL that is a secret key, if the tracker puts one there. */
  secretSegment?: (segments: string[]) => number | null;
}

export const PRESETS: Record<Tracker, Preset> = {
  KEITARO: {
    source: 'https://docs.keitaro.io/en/conversions/postback.html',
    trackerSettings:
      'Nothing to set: Keitaro keeps one conversion per tid (the order) and updates it as the order changes. ' +
      'It documents lead to sale, lead to rejected and sale to rejected only: an approved order moved back ' +
      'to PENDING is sent as rejected, and an order approved again after that (or after a rejection) stays ' +
      'rejected in Keitaro, below what the network owes, never above it.',
    parameters: (clickId) => [
      ['subid', `{${clickId}}`],
      ['tid', '{order_id}'],
      ['status', '{status}'],
      ['payout', '{payout}'],
      ['currency', '{currency}'],
      // The click's other sub-IDs, which Keitaro updates from a postback.
      ...otherSubIds(clickId).map(([n, value]): [string, string] => [`sub_id_${n}`, value]),
      // Keitaro answers this text when it took the postback.
      ['return', 'OK'],
    ],
    events: EVERY_CHANGE,
    statuses: [],
    // Keitaro's statuses: lead (payout not confirmed), sale (confirmed), rejected (cancelled).
    statusMap: {
      PENDING: 'lead',
      APPROVED: 'sale',
      PAID: 'sale',
      REJECTED: 'rejected',
      UNAPPROVED: 'rejected',
    },
    typeMap: {},
    payoutRule: 'EARNINGS',
    successText: 'OK',
    // https://tracker/<postback key>/postback: the key authenticates the postback.
    secretSegment: (segments) =>
      segments.length >= 2 && segments.at(-1) === 'postback' ? segments.length - 2 : null,
  },
  VOLUUM: {
    source: 'https://doc.voluum.com/en/tracking_conversions_postback.html',
    trackerSettings:
      'Nothing to set. Voluum counts a click and txid once and takes no later change or reversal: the ' +
      'postback sends each order once, when it is final (locked while approved, or paid), so Voluum shows ' +
      'what was earned for good, and nothing while an order can still change. Add &et=<a custom ' +
      'conversion of yours> to record it under that name.',
    parameters: (clickId) => [
      ['cid', `{${clickId}}`],
      ['payout', '{payout}'],
      ['txid', '{order_id}'],
      ['currency', '{currency}'],
      // Voluum's free parameters carry the other sub-IDs.
      ...otherSubIds(clickId).map(([n, value]): [string, string] => [`param${n}`, value]),
    ],
    events: ['order.locked', 'order.paid'],
    statuses: ['APPROVED', 'PAID'],
    statusMap: { PENDING: 'pending', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' },
    typeMap: {},
    payoutRule: 'EARNINGS',
    successText: null,
  },
  REDTRACK: {
    source: 'https://help.redtrack.io/knowledgebase/kb/conversion-tracking/tracking-event-types/',
    trackerSettings:
      "In the offer source, set the duplicate postback setting to 'Edit conversion with new data' (a change " +
      "of status or payout edits the click's conversion, and a retry edits it with the same data), and its " +
      "currency to the orders' (the postback carries none). Create the conversion types Lead and Purchase, " +
      'or change the type map. A click with two orders shows the one changed last.',
    parameters: (clickId) => [
      ['clickid', `{${clickId}}`],
      ['sum', '{payout}'],
      ['status', '{status}'],
      ['type', '{type}'],
      // The same for every request that reports the same state of an order.
      ['rdtk_event_id', '{conversion_key}'],
    ],
    events: EVERY_CHANGE,
    statuses: [],
    // RedTrack's conversion statuses: Approved, Pending, Declined (and Other).
    statusMap: { PENDING: 'Pending', APPROVED: 'Approved', PAID: 'Approved', REJECTED: 'Declined' },
    // Types, which RedTrack advises over statuses for Meta, Google and Bing.
    typeMap: { PENDING: 'Lead', APPROVED: 'Purchase', PAID: 'Purchase', REJECTED: 'Lead' },
    payoutRule: 'OWED',
    successText: null,
  },
  BINOM: {
    source: 'https://docs.binom.org/postback-url.php',
    trackerSettings:
      "Set the offer's payout to Auto (Binom reads a postback's payout only then) and leave Upsell off " +
      '(with it every postback adds its payout: each status change and retry would count again). Binom ' +
      'keeps one conversion per click: a click with two orders shows the one changed last.',
    parameters: (clickId) => [
      ['cnv_id', `{${clickId}}`],
      ['payout', '{payout}'],
      ['cnv_status', '{status}'],
      ['cnv_currency', '{currency}'],
    ],
    events: EVERY_CHANGE,
    statuses: [],
    // Binom takes a free-text status, and counts a conversion's payout whatever its status.
    statusMap: { PENDING: 'pending', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' },
    typeMap: {},
    payoutRule: 'OWED',
    successText: null,
  },
};

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A tracker's postback settings from its base URL: the base's path kept (a key in it moved to
 * `{secret}` where the tracker puts one), its query parameters kept unless the preset writes them,
 * then the preset's parameters. `clickIdSubId` is the sub-ID the tracker's click id rides in.
 */
export function applyPreset(tracker: Tracker, baseUrl: string, clickIdSubId = 1): PresetSettings {
  if (!Number.isInteger(clickIdSubId) || clickIdSubId < 1 || clickIdSubId > 5) {
    throw new TemplateError('clickIdSubId must be 1, 2, 3, 4 or 5');
  }
  let base: URL;
  try {
    base = new URL(baseUrl.trim());
  } catch {
    throw new TemplateError(
      'baseUrl must be the tracker’s postback address, like https://tracker.example.com/postback',
    );
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new TemplateError('baseUrl must be http or https');
  }
  const preset = PRESETS[tracker];
  const parameters = preset.parameters(`sub${clickIdSubId}` as MacroName);
  const written = new Set(parameters.map(([name]) => name));

  // pathname is percent-encoded by the URL parser: no brace of it reads as a macro.
  const segments = base.pathname.split('/');
  const named = segments.flatMap((segment, index) => (segment ? [index] : []));
  const secretAt = preset.secretSegment?.(named.map((index) => segments[index]!)) ?? null;
  let secret: string | null = null;
  if (secretAt !== null) {
    const index = named[secretAt]!;
    secret = decodedSegment(segments[index]!);
    segments[index] = '{secret}';
  }
  const kept = [...base.searchParams].filter(([name]) => !written.has(name));
  const query = [
    ...kept.map(([name, value]) => new URLSearchParams([[name, value]]).toString()),
    ...parameters.map(([name, value]) => `${name}=${value}`),
  ].join('&');
  return {
    events: [...preset.events],
    statuses: [...preset.statuses],
    method: 'GET',
    urlTemplate: `${base.origin}${segments.join('/')}?${query}`,
    statusMap: { ...preset.statusMap },
    typeMap: { ...preset.typeMap },
    payoutRule: preset.payoutRule,
    successText: preset.successText,
    secret,
  };
}
