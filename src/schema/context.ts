import type { DashboardToken } from '../auth/dashboardToken';
import type { VerifiedKey } from '../auth/verifyApiKey';

/** What every resolver may know about the request. Prisma is imported from src/db.ts, not put here. */
export interface Context {
  request: Request;
  /** The verified `x-api-key`, or null when it is absent or invalid. */
  apiKey: VerifiedKey | null;
  /** The user id of a valid dashboard JWT (`x-api-token`), or null. */
  dashboardUserId: string | null;
  /** The dashboard JWT as checked: its user, or why it opens nothing. */
  dashboardToken: DashboardToken;
}
