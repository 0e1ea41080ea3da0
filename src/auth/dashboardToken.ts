// Dashboard JWTs (`x-api-token`): HS256 signed with DASHBOARD_JWT_SECRET, `sub` = user id.
import { jwtVerify, SignJWT } from 'jose';
import { config } from '../config';

const secretKey = new TextEncoder().encode(config.dashboardJwtSecret);

/** The user id of a valid token; null for a missing, malformed, expired or forged token. */
export async function verifyDashboardToken(token: string | null): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, secretKey, { algorithms: ['HS256'] });
    return typeof payload.sub === 'string' && payload.sub ? payload.sub : null;
  } catch {
    return null;
  }
}

export function signDashboardToken(userId: string, expiresIn = '12h'): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(secretKey);
}
