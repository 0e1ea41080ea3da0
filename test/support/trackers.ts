// Four trackers as test doubles that book postbacks by each one's documented rules (sources in
// ../shared/design/anchors-money.md, section 1.1, and in each preset's `source`), behind one HTTP
// server on 127.0.0.1: what each shows as a click's revenue after the postbacks it was sent.
// Money is kept in minor units, parsed from the decimal text a postback carries.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** "12.50" -> 1250, "-3.00" -> -300, "0.00" -> 0; a missing or unreadable payout is 0. */
export function minorOf(text: string | null, exponent = 2): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text ?? '');
  if (!match) return 0;
  const [, sign, whole, fraction = ''] = match;
  const minor = Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0'));
  return sign ? -minor : minor;
}

/** A tracker's books: it takes a postback's query and says what it shows per click. */
export interface TrackerDouble {
  take(query: URLSearchParams): void;
  /** The click's revenue as the tracker reports it, in minor units. */
  revenueOf(clickId: string): number;
}

interface Conversion {
  clickId: string;
  status: string;
  payout: number;
}

/** Keeps one conversion per key and sums the revenue of a click's conversions that count. */
function books(
  keyOf: (query: URLSearchParams) => string,
  clickParameter: string,
  next: (held: Conversion | undefined, taken: Conversion) => Conversion | undefined,
  counts: (conversion: Conversion) => boolean,
  payoutParameter = 'payout',
  statusParameter = 'status',
): TrackerDouble {
  const conversions = new Map<string, Conversion>();
  return {
    take(query) {
      const key = keyOf(query);
      const taken = {
        clickId: query.get(clickParameter) ?? '',
        status: query.get(statusParameter) ?? '',
        payout: minorOf(query.get(payoutParameter)),
      };
      const kept = next(conversions.get(key), taken);
      if (kept) conversions.set(key, kept);
    },
    revenueOf(clickId) {
      let revenue = 0;
      for (const conversion of conversions.values()) {
        if (conversion.clickId === clickId && counts(conversion)) revenue += conversion.payout;
      }
      return revenue;
    },
  };
}

// Keitaro (K1): one conversion per subid and tid; a postback for it updates it, but only along
// the moves Keitaro documents (lead to sale, lead to rejected, sale or rebill to rejected) or in
// the same status; any other is not taken. Sales and rebills are revenue.
const KEITARO_MOVES = new Set(['lead>sale', 'lead>rejected', 'sale>rejected', 'rebill>rejected']);
const keitaro = () =>
  books(
    (query) => `${query.get('subid')}|${query.get('tid')}`,
    'subid',
    (held, taken) =>
      !held || held.status === taken.status || KEITARO_MOVES.has(`${held.status}>${taken.status}`)
        ? taken
        : undefined,
    (conversion) => conversion.status === 'sale' || conversion.status === 'rebill',
  );

// Voluum (V1, V2, V4): a click and txid are counted once; every later postback for them is
// discarded as a duplicate. No statuses: every counted conversion is revenue.
const voluum = () =>
  books(
    (query) => `${query.get('cid')}|${query.get('txid') ?? ''}`,
    'cid',
    (held, taken) => (held ? undefined : taken),
    () => true,
  );

// RedTrack (R1, R2) in "Edit conversion with new data": a click's conversion is edited by every
// postback for the click. Every status but Declined is revenue.
const redtrack = () =>
  books(
    (query) => query.get('clickid') ?? '',
    'clickid',
    (_held, taken) => taken,
    (conversion) => conversion.status !== 'Declined',
    'sum',
  );

// Binom (B1, B2, B3) with the offer's payout on Auto and Upsell off: a click's conversion is
// updated by every postback for the click; its status is free text, its payout always revenue.
const binom = () =>
  books(
    (query) => query.get('cnv_id') ?? '',
    'cnv_id',
    (_held, taken) => taken,
    () => true,
    'payout',
    'cnv_status',
  );

export const TRACKER_DOUBLES = {
  KEITARO: keitaro,
  VOLUUM: voluum,
  REDTRACK: redtrack,
  BINOM: binom,
};
export type TrackerName = keyof typeof TRACKER_DOUBLES;

export interface TrackerServer {
  url: string;
  /** Each tracker's books, under /<tracker in lower case>/. */
  trackers: Record<TrackerName, TrackerDouble>;
  /** Requests answered so far. */
  requests: number;
  /** Answers 500, without booking, the next request whose query holds `text`. */
  failNext(text: string): void;
  close(): Promise<void>;
}

/** The four doubles behind one server; a postback to `${url}/keitaro/...` books in Keitaro's. */
export async function startTrackers(): Promise<TrackerServer> {
  const trackers = Object.fromEntries(
    Object.entries(TRACKER_DOUBLES).map(([name, make]) => [name, make()]),
  ) as Record<TrackerName, TrackerDouble>;
  const failing = new Set<string>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      served.requests += 1;
      const url = new URL(request.url ?? '/', 'http://trackers');
      const name = url.pathname.split('/')[1]?.toUpperCase() as TrackerName;
      const fails = [...failing].find((text) => url.search.includes(text));
      if (fails !== undefined) {
        failing.delete(fails);
        response.writeHead(500).end('try again');
        return;
      }
      trackers[name]?.take(url.searchParams);
      response.writeHead(trackers[name] ? 200 : 404, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const served: TrackerServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    trackers,
    requests: 0,
    failNext: (text) => failing.add(text),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return served;
}
