import { describe, expect, it } from 'vitest';
import { checkBaseUrl, hostPermissionPattern } from '../../utils/base-url';

describe('checkBaseUrl', () => {
  it('normalises an https URL: trims, drops trailing slashes, keeps a path prefix', () => {
    expect(checkBaseUrl('  https://Panel.Example.com/api/  ')).toEqual({
      ok: true,
      baseUrl: 'https://panel.example.com/api',
      origin: 'https://panel.example.com',
    });
    expect(checkBaseUrl('https://panel.example.com/')).toMatchObject({
      ok: true,
      baseUrl: 'https://panel.example.com',
    });
    expect(checkBaseUrl('https://panel.example.com:8443')).toMatchObject({ origin: 'https://panel.example.com:8443' });
  });

  it('accepts plain http only for localhost and 127.0.0.1', () => {
    expect(checkBaseUrl('http://localhost:8787')).toMatchObject({ ok: true, origin: 'http://localhost:8787' });
    expect(checkBaseUrl('http://127.0.0.1:8787/')).toMatchObject({ ok: true, baseUrl: 'http://127.0.0.1:8787' });
    const refused = checkBaseUrl('http://panel.example.com');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/https/);
    expect(checkBaseUrl('http://localhost.evil.example').ok).toBe(false);
  });

  it('refuses empty and malformed input with a message saying what to enter', () => {
    for (const input of ['', '   ', 'panel.example.com', 'https://', 'not a url']) {
      const result = checkBaseUrl(input);
      expect(result.ok, input).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/https:\/\//);
    }
  });

  it('refuses other schemes, embedded credentials, queries and fragments', () => {
    expect(checkBaseUrl('ftp://panel.example.com').ok).toBe(false);
    expect(checkBaseUrl('javascript:alert(1)').ok).toBe(false);
    expect(checkBaseUrl('https://user:pw@panel.example.com').ok).toBe(false);
    expect(checkBaseUrl('https://panel.example.com/?x=1').ok).toBe(false);
    expect(checkBaseUrl('https://panel.example.com/#top').ok).toBe(false);
  });
});

describe('hostPermissionPattern', () => {
  it('leaves the port out, which Firefox requires and Chrome reads as any port', () => {
    expect(hostPermissionPattern('https://panel.example.com')).toBe('https://panel.example.com/*');
    expect(hostPermissionPattern('http://127.0.0.1:8787')).toBe('http://127.0.0.1/*');
  });
});
