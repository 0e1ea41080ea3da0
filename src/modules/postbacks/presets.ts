// Presets for the trackers affiliates use most: from the tracker's postback address (its base URL,
// as the tracker shows it), the URL template with the parameters the tracker documents, the
// status map to its words, and what its answer must say. The affiliate can edit every part of the
// result. The parameters each preset writes, and their source, are in docs/postbacks.md. Pure.
import type { OrderStatus, PostbackMethod } from '../../generated/prisma/client';
import type { MacroName, StatusMap } from './macros';
import { TemplateError } from './templates';

export const TRACKERS = ['KEITARO', 'VOLUUM', 'REDTRACK', 'BINOM'] as const;
export type Tracker = (typeof TRACKERS)[number];

/** What a preset fills in; the same fields a postback is saved with. */
export interface PresetSettings {
  method: PostbackMethod;
  urlTemplate: string;
  statusMap: StatusMap;
  successText: string | null;
  /** A key the tracker's address carries (Keitaro's postback key), moved to `{secret}`. */
  secret: string | null;
}

interface Preset {
  /** Where the tracker documents the postback it receives. */
  source: string;
  /** The tracker's parameters in order, each with its value's template. */
  parameters: (clickId: MacroName) => [string, string][];
  statusMap: Record<OrderStatus, string>;
  successText: string | null;
  /** A path segment of the base URL that is a secret key, if the tracker puts one there. */
  secretSegment?: (segments: string[]) => number | null;
}

export const PRESETS: Record<Tracker, Preset> = {
  KEITARO: {
    source: 'https://docs.keitaro.io/en/conversions/postback.html',
    parameters: (clickId) => [
      ['subid', `{${clickId}}`],
      ['tid', '{order_id}'],
      ['status', '{status}'],
      ['payout', '{payout}'],
      ['currency', '{currency}'],
      // Keitaro answers this text when it took the postback.
      ['return', 'OK'],
    ],
    // Keitaro's statuses: lead (payout not confirmed), sale (confirmed), rejected (cancelled).
    statusMap: { PENDING: 'lead', APPROVED: 'sale', PAID: 'sale', REJECTED: 'rejected' },
    successText: 'OK',
    // https://tracker/<postback key>/postback: the key authenticates the postback.
    secretSegment: (segments) =>
      segments.length >= 2 && segments.at(-1) === 'postback' ? segments.length - 2 : null,
  },
  VOLUUM: {
    source: 'https://doc.voluum.com/en/tracking_conversions_postback.html',
    parameters: (clickId) => [
      ['cid', `{${clickId}}`],
      ['payout', '{payout}'],
      ['txid', '{order_id}'],
      ['currency', '{currency}'],
      // A custom conversion event: Voluum records it under the conversion type of this name.
      ['et', '{status}'],
    ],
    statusMap: { PENDING: 'pending', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' },
    successText: null,
  },
  REDTRACK: {
    source: 'https://help.redtrack.io/knowledgebase/kb/conversion-tracking/tracking-event-types/',
    parameters: (clickId) => [
      ['clickid', `{${clickId}}`],
      ['sum', '{payout}'],
      ['status', '{status}'],
      // RedTrack's key for ignoring duplicate postbacks: a retry repeats the delivery's id.
      ['rdtk_event_id', '{delivery_id}'],
    ],
    // RedTrack's conversion statuses: Approved, Pending, Declined (and Other).
    statusMap: { PENDING: 'Pending', APPROVED: 'Approved', PAID: 'Approved', REJECTED: 'Declined' },
    successText: null,
  },
  BINOM: {
    source: 'https://docs.binom.org/postback-url.php',
    parameters: (clickId) => [
      ['cnv_id', `{${clickId}}`],
      ['payout', '{payout}'],
      ['cnv_status', '{status}'],
      ['cnv_currency', '{currency}'],
    ],
    // Binom takes a free-text status.
    statusMap: { PENDING: 'pending', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' },
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
    method: 'GET',
    urlTemplate: `${base.origin}${segments.join('/')}?${query}`,
    statusMap: { ...preset.statusMap },
    successText: preset.successText,
    secret,
  };
}
