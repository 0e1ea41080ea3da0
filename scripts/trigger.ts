// `npm run trigger -- <event> [options]`: causes an event in the running development service, as
// `stripe trigger` does for Stripe's: it calls the service's triggerEvent (http://127.0.0.1:$PORT,
// 4000 unless PORT says otherwise) with a dashboard token of the user (Ana, the demo affiliate,
// unless --user names another), signed as `npm run token` signs one. The service writes the order as
// the back office would, and its webhooks and postbacks follow.
import { parseArgs } from 'node:util';
import { DEMO_USERS } from '../src/auth/demoIdentities';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/platform/config';
import {
  enumValueOf,
  isTriggerEventType,
  servesTriggers,
  TRIGGER_EVENT_TYPES,
  TRIGGER_EVENTS,
} from '../src/modules/trigger/triggerEvents';

const MUTATION = `mutation Trigger($type: TriggerEventType!, $orderId: ID, $status: OrderStatus,
  $reason: OrderStatusReason, $note: String, $linkCode: String, $subIds: [String],
  $latestClick: Boolean, $couponCode: String, $payoutId: ID, $holdReason: HoldReason, $kind: LedgerKind,
  $amount: Float, $currency: String) {
  triggerEvent(type: $type, orderId: $orderId, status: $status, reason: $reason, note: $note,
    linkCode: $linkCode, subIds: $subIds, latestClick: $latestClick, couponCode: $couponCode, payoutId: $payoutId,
    holdReason: $holdReason, kind: $kind, amount: $amount, currency: $currency) {
    type orderId summary }
}`;

const USAGE = [
  'usage: npm run trigger -- <event> [options]',
  '',
  'events:',
  ...TRIGGER_EVENT_TYPES.map((type) => `  ${type.padEnd(22)} ${TRIGGER_EVENTS[type]}`),
  '',
  'order.created:',
  "  --link <code>     the order came through this short link of yours (its brand's order)",
  '  --sub1 ... --sub5 <value>  its sub-IDs, as the brand reports them',
  "  --coupon <CODE>   placed with this coupon code of yours (GET /affiliate/coupons; its brand's order)",
  "  --click latest    with --link: the sub-IDs of the link's latest counted click",
  'order.status_changed:',
  '  --order <id>      the order to change (default: the newest that can)',
  '  --status <STATUS> PENDING, APPROVED or REJECTED (PAID comes with payout.paid)',
  '  --reason <REASON> why: RETURNED, CANCELLED, FRAUD, DUPLICATE, TEST_ORDER, TERMS_VIOLATION,',
  '                    AMOUNT_CORRECTED or OTHER (a rejection without one: OTHER)',
  '  --note <text>     the reason in words (OTHER needs one)',
  'order.held, order.released, order.clawback:',
  '  --order <id>      the order (default: your newest that can)',
  '  --hold <REASON>   order.held: REVIEW (default), DISPUTE or FRAUD_CHECK; --note says more',
  '  --amount <n>      order.clawback: how much to take back (default: all that is left)',
  "  --note <text>     order.clawback: why (the entry's reason)",
  'earning.created:',
  '  --kind <KIND>     BONUS (default), CPC, CREDIT or DEBIT',
  "  --amount <n>      in major units, the currency's decimals at most (default 10)",
  "  --currency <CODE> ISO 4217 (default: your newest order's)",
  '  --note <text>     its reason',
  'payout.scheduled:',
  '  --currency <CODE> the currency to pay (default: the one with the most available lines)',
  'payout.processing, payout.paid, payout.failed, payout.cancelled:',
  '  --payout <id>     the payout to move (default: your newest that can)',
  '  --note <text>     payout.failed: why it failed',
  `  --user <id>       the affiliate user whose order it is (default: Ana, ${DEMO_USERS.affiliate})`,
].join('\n');

/** Where the service on this machine answers: its HOST, or the loopback where it listens on every interface. */
function serviceBase(): string {
  const host = config.host;
  if (!host || host === '0.0.0.0' || host === '::') return `http://127.0.0.1:${config.port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

interface Answer {
  data?: { triggerEvent?: { type: string; orderId: string | null; summary: string } | null };
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        order: { type: 'string' },
        status: { type: 'string' },
        reason: { type: 'string' },
        note: { type: 'string' },
        link: { type: 'string' },
        coupon: { type: 'string' },
        payout: { type: 'string' },
        hold: { type: 'string' },
        kind: { type: 'string' },
        amount: { type: 'string' },
        currency: { type: 'string' },
        click: { type: 'string' },
        sub1: { type: 'string' },
        sub2: { type: 'string' },
        sub3: { type: 'string' },
        sub4: { type: 'string' },
        sub5: { type: 'string' },
        user: { type: 'string', default: DEMO_USERS.affiliate },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [type, ...extra] = positionals;
  if (!type || extra.length > 0) fail(USAGE, 2);
  if (!isTriggerEventType(type)) fail(`Unknown event "${type}".\n\n${USAGE}`, 2);
  if (values.click !== undefined && values.click !== 'latest') {
    fail(`--click takes "latest" (the link's latest counted click).\n\n${USAGE}`, 2);
  }
  const amount = values.amount === undefined ? null : Number(values.amount);
  if (amount !== null && !(values.amount!.trim() !== '' && Number.isFinite(amount))) {
    fail(`--amount takes a number (12.50).\n\n${USAGE}`, 2);
  }
  if (!servesTriggers(config)) {
    fail(
      'npm run trigger is for development: a service with NODE_ENV=production or KEY_ENV=live ' +
        'causes no events on request',
      2,
    );
  }

  const base = serviceBase();
  const token = await signDashboardToken(values.user!, '5m');
  let response: Response;
  try {
    response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify({
        query: MUTATION,
        variables: {
          type: enumValueOf(type),
          orderId: values.order ?? null,
          status: values.status?.toUpperCase() ?? null,
          reason: values.reason?.toUpperCase() ?? null,
          note: values.note ?? null,
          linkCode: values.link ?? null,
          subIds: [values.sub1, values.sub2, values.sub3, values.sub4, values.sub5].map(
            (value) => value ?? null,
          ),
          latestClick: values.click === 'latest',
          couponCode: values.coupon ?? null,
          payoutId: values.payout ?? null,
          holdReason: values.hold?.toUpperCase() ?? null,
          kind: values.kind?.toUpperCase() ?? null,
          amount,
          currency: values.currency?.toUpperCase() ?? null,
        },
      }),
    });
  } catch {
    fail(
      `Nothing answers at ${base}: start the service (npm start), or set PORT to the port it listens on`,
    );
  }
  const text = await response.text();
  let answer: Answer;
  try {
    answer = JSON.parse(text) as Answer;
  } catch {
    fail(`${base}/graphql answered ${response.status} and no GraphQL result: is it this service?`);
  }
  const [error] = answer.errors ?? [];
  if (error && /\btriggerEvent\b|\bTriggerEventType\b/.test(error.message)) {
    fail(
      `The service at ${base} causes no events: triggerEvent is served in development only ` +
        '(not with NODE_ENV=production or KEY_ENV=live)',
    );
  }
  if (error)
    fail(`${type} refused: ${error.message} (${error.extensions?.code ?? response.status})`);
  const triggered = answer.data!.triggerEvent!;
  console.log(`${type}: ${triggered.summary}`);
}

void main();
