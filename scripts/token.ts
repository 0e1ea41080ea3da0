// npm run token -- <userId> [expiresIn]: prints a dashboard JWT, signed with DASHBOARD_JWT_SECRET,
// or else a development installation's own secret (data/dashboard-jwt-secret). Built into
// dist/token.js too: in production, `node dist/token.js <userId> 10m` with the service's settings
// signs the first token of an account, to make its first key (docs/operating.md).
import { signDashboardToken } from '../src/auth/dashboardToken';

const [userId, expiresIn = '12h'] = process.argv.slice(2);
if (!userId) {
  console.error('usage: npm run token -- <userId> [expiresIn, e.g. 12h]');
  process.exit(2);
}
signDashboardToken(userId, expiresIn).then((token) => console.log(token));
