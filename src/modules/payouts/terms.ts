// Payout terms: the least a payout pays and the day of the month payouts are made, per affiliate
// and currency, the affiliate's own or else the network's ("PayoutTerms", migration ledger), and
// what they mean for the available money. Pure but for the one read.
import { amountText } from '../../platform/currencies';
import { prisma } from '../../platform/db';

export interface Terms {
  minimumMinor: number;
  /** 1-28: payouts are made on this day of each month, at 00:00 UTC. */
  payoutDay: number;
}

/** What is next for the available money of one currency. */
export interface Outlook extends Terms {
  availableMinor: number;
  nextPayoutAt: Date;
}

/** The affiliate's terms per currency: its own where it has them, else the network's. */
export async function termsByCurrency(affiliateId: string): Promise<Map<string, Terms>> {
  const rows = await prisma.payoutTerms.findMany({
    where: { OR: [{ affiliateId }, { affiliateId: null }] },
    select: { affiliateId: true, currency: true, minimumMinor: true, payoutDay: true },
  });
  const byCurrency = new Map<string, Terms>();
  // The network's first, so the affiliate's own replace them.
  for (const row of rows.sort(
    (a, b) => Number(a.affiliateId !== null) - Number(b.affiliateId !== null),
  )) {
    byCurrency.set(row.currency, { minimumMinor: row.minimumMinor, payoutDay: row.payoutDay });
  }
  return byCurrency;
}

/** The first payout day (00:00 UTC of day `day` of a month) after `now`. */
export function nextPayoutDate(day: number, now: Date): Date {
  const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day);
  if (thisMonth > now.getTime()) return new Date(thisMonth);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day));
}

export function payoutOutlook(availableMinor: number, terms: Terms, now: Date): Outlook {
  return { ...terms, availableMinor, nextPayoutAt: nextPayoutDate(terms.payoutDay, now) };
}

/** The balance's outlook in words, amounts in the currency's own decimals. */
export function outlookText(currency: string, outlook: Outlook): string {
  const money = (minor: number) => `${amountText(minor, currency)} ${currency}`;
  const date = outlook.nextPayoutAt.toISOString().slice(0, 10);
  if (outlook.availableMinor < 0) {
    return `The available balance is ${money(outlook.availableMinor)} after clawbacks and debits: later earnings fill it before anything is paid.`;
  }
  if (outlook.availableMinor === 0)
    return `Nothing is available to pay; the next payout is on ${date}.`;
  if (outlook.availableMinor < outlook.minimumMinor) {
    return `Available ${money(outlook.availableMinor)} is below the minimum payout of ${money(outlook.minimumMinor)}: it carries forward until it reaches it.`;
  }
  return `Available ${money(outlook.availableMinor)} is paid in the payout of ${date}.`;
}
