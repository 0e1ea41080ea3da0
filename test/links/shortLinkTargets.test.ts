// What a creation body asks a link to lead to (src/modules/links/targets.ts).
import { deepLinkTarget, linkTargetOf } from '../../src/modules/links/targets';

describe('link targets', () => {
  test('linkTargetOf', () => {
    expect(linkTargetOf({ featureId: 'c' })).toEqual({ kind: 'campaign', campaignId: 'c' });
    expect(linkTargetOf({ organizationId: 'o' })).toEqual({
      kind: 'brandPage',
      organizationId: 'o',
    });
    expect(linkTargetOf({ organizationId: 'o', originalUrl: 'u' })).toEqual({
      kind: 'custom',
      organizationId: 'o',
      originalUrl: 'u',
    });
  });

  test('deepLinkTarget: the brand host without www., or a subdomain', () => {
    const site = 'https://www.aurora.example/home';
    expect(deepLinkTarget('https://aurora.example/x', site).href).toBe('https://aurora.example/x');
    expect(deepLinkTarget('https://www.aurora.example/x', site).hostname).toBe(
      'www.aurora.example',
    );
    expect(deepLinkTarget('https://a.b.aurora.example/', site).hostname).toBe('a.b.aurora.example');
    expect(() => deepLinkTarget('https://aurora.example.com/', site)).toThrow(/brand's site/);
    expect(() => deepLinkTarget('https://aurora.example/', null)).toThrow(/no website/);
    expect(() => deepLinkTarget('https://aurora.example/', 'not a url')).toThrow(/no website/);
  });
});
