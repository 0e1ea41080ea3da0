// npm run token -- <userId> [expiresIn]: prints a dashboard JWT (development aid), signed with
// DASHBOARD_JWT_SECRET, or else this installation's own secret (data/dashboard-jwt-secret).
import { signDashboardToken } from '../src/auth/dashboardToken';

const [userId, expiresIn = '12h'] = process.argv.slice(2);
if (!userId) {
  console.error('usage: npm run token -- <userId> [expiresIn, e.g. 12h]');
  process.exit(2);
}
signDashboardToken(userId, expiresIn).then((token) => console.log(token));
