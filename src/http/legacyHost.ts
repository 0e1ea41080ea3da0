// The legacy (beta) host answers exactly like the production one and says it is on its way out
// (RFC 9745 Deprecation, RFC 8594 Sunset, and a link to the successor).

export interface LegacyHostSettings {
  legacyHosts: readonly string[];
  sunset: Date;
  publicBaseUrl: string;
}

export function isLegacyHost(url: URL, legacyHosts: readonly string[]): boolean {
  return legacyHosts.includes(url.hostname.toLowerCase());
}

export function deprecationHeaders(settings: LegacyHostSettings): Record<string, string> {
  return {
    Deprecation: 'true',
    Sunset: settings.sunset.toUTCString(),
    Link: `<${settings.publicBaseUrl}>; rel="successor-version"`,
  };
}
