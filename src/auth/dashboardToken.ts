// Dashboard JWTs (`x-api-token`): HS256 signed with DASHBOARD_JWT_SECRET. A token names its user in
// `sub` and must expire (`exp`), within DASHBOARD_TOKEN_MAX_LIFETIME_S of its issue (`iat`, or of
// now without one); an `iat` in the future is refused; `iss` and `aud` are checked when configured.
import { errors, jwtVerify, SignJWT } from 'jose';
import { config } from '../platform/config';

const secretKey = new TextEncoder().encode(config.dashboardJwtSecret);

/** Clocks of the dashboard and this service may differ by this much. */
const CLOCK_TOLERANCE_S = 30;

export type DashboardToken =
  | { userId: string }
  /** Why a presented token opens nothing (a missing one is `absent`). */
  | { refused: 'absent' | 'expired' | 'invalid'; reason: string };

const ABSENT: DashboardToken = { refused: 'absent', reason: 'no x-api-token header' };

function refusedAs(error: unknown): DashboardToken {
  if (error instanceof errors.JWTExpired) return { refused: 'expired', reason: 'it has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    return { refused: 'invalid', reason: `its ${error.claim} claim is missing or wrong` };
  }
  return { refused: 'invalid', reason: 'it is not a token signed for this service' };
}

export interface TokenRules {
  maxLifetimeS: number;
  issuer?: string;
  audience?: string;
}

const CONFIGURED: TokenRules = {
  maxLifetimeS: config.dashboardTokenMaxLifetimeS,
  issuer: config.dashboardJwtIssuer,
  audience: config.dashboardJwtAudience,
};

/** Checks a presented token; never throws. */
export async function verifyDashboardToken(
  token: string | null,
  rules: TokenRules = CONFIGURED,
  nowS = Date.now() / 1000,
): Promise<DashboardToken> {
  if (!token) return ABSENT;
  try {
    const { payload } = await jwtVerify(token, secretKey, {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(nowS * 1000),
      ...(rules.issuer && { issuer: rules.issuer }),
      ...(rules.audience && { audience: rules.audience }),
    });
    if (payload.iat !== undefined && payload.iat > nowS + CLOCK_TOLERANCE_S) {
      return { refused: 'invalid', reason: 'it was issued in the future (iat)' };
    }
    const lifetime = payload.exp! - (payload.iat ?? nowS);
    if (lifetime > rules.maxLifetimeS) {
      return { refused: 'invalid', reason: `it lives longer than ${rules.maxLifetimeS} s (exp)` };
    }
    return payload.sub ? { userId: payload.sub } : refusedAs(null);
  } catch (error) {
    return refusedAs(error);
  }
}

export function signDashboardToken(userId: string, expiresIn = '12h'): Promise<string> {
  let token = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn);
  if (config.dashboardJwtIssuer) token = token.setIssuer(config.dashboardJwtIssuer);
  if (config.dashboardJwtAudience) token = token.setAudience(config.dashboardJwtAudience);
  return token.sign(secretKey);
}
