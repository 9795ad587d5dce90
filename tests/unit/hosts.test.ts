// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { checkBaseUrl, hostPermissionPattern } from '../../utils/base-url';
import { imageOrigin } from '../../utils/content-policy';
import { canonicalOrigin, hostOf, isPublicHost, plainHttpAllowed, type HostKind } from '../../utils/hosts';
import { safeImageUrl } from '../../utils/image-url';

/** Every spelling of one host the URL parser and this module bring to one canonical form, with its kind. */
const SPELLINGS: ReadonlyArray<[canonical: string, kind: HostKind, spellings: string[]]> = [
  [
    'localhost',
    'loopback',
    [
      'https://localhost/x',
      'https://LOCALHOST/x',
      'https://localhost./x',
      'https://LocalHost../x',
      'https://local%68ost/x',
      'https://localhost%2e/x',
      'https://ｌｏｃａｌｈｏｓｔ/x',
      'localhost.',
    ],
  ],
  ['router.localhost', 'loopback', ['https://router.localhost./x', 'https://Router.LOCALHOST/x']],
  [
    '127.0.0.1',
    'loopback',
    [
      'https://127.0.0.1/x',
      'https://127.0.0.1./x',
      'https://127.0.0.1../x',
      'https://2130706433/x',
      'https://0x7f000001/x',
      'https://0x7f.1/x',
      'https://0x7f.1../x',
      'https://0177.0.0.1/x',
      'https://0177.0.0.01/x',
      'https://127.1/x',
      'https://127.0.1/x',
      'https://%31%32%37.0.0.1/x',
      'https://127。0。0。1/x',
      '127.1',
    ],
  ],
  ['127.0.0.2', 'loopback', ['https://127.0.0.2/x', 'https://0x7f000002/x']],
  [
    '[::ffff:7f00:1]',
    'loopback',
    ['https://[::ffff:127.0.0.1]/x', 'https://[0:0:0:0:0:ffff:127.0.0.1]/x', 'https://[::FFFF:7F00:1]/x'],
  ],
  ['[::1]', 'loopback', ['https://[::1]/x', 'https://[0::1]/x', 'https://[0:0:0:0:0:0:0:1]/x', '::1', '[::1]']],
  ['[fe80::1]', 'link-local', ['https://[fe80::1]/x', 'https://[FE80:0::1]/x', 'fe80::1%eth0', '[fe80::1%25eth0]']],
  [
    '169.254.169.254',
    'link-local',
    ['https://169.254.169.254/x', 'https://169.254.169.254./x', 'https://0xA9FEA9FE/x'],
  ],
  ['[::ffff:a9fe:a9fe]', 'link-local', ['https://[::ffff:169.254.169.254]/x']],
  ['10.0.0.5', 'private', ['https://10.0.0.5/x', 'https://10.5/x', 'https://012.0.0.5/x']],
  ['172.20.0.1', 'private', ['https://172.20.0.1/x']],
  ['192.168.1.1', 'private', ['https://192.168.1.1/x', 'https://0xc0.0xa8.1.1/x']],
  ['100.64.0.1', 'private', ['https://100.64.0.1/x']],
  ['[fd00::1]', 'private', ['https://[fd00::1]/x', 'https://[FD00:0:0::1]/x']],
  ['printer.local', 'private', ['https://printer.local./x', 'https://PRINTER.LOCAL/x']],
  ['nas.home.arpa', 'private', ['https://nas.home.arpa/x']],
  ['metadata.google.internal', 'private', ['https://metadata.google.internal./x']],
  ['0.0.0.0', 'unspecified', ['https://0.0.0.0/x', 'https://0/x', 'https://0x0/x']],
  ['[::]', 'unspecified', ['https://[::]/x', 'https://[0:0::0]/x']],
  ['224.0.0.1', 'special', ['https://224.0.0.1/x']],
  ['255.255.255.255', 'special', ['https://255.255.255.255/x', 'https://4294967295/x']],
  ['192.0.2.1', 'special', ['https://192.0.2.1/x']],
  ['[2001:db8::1]', 'special', ['https://[2001:db8::1]/x']],
  ['[64:ff9b::7f00:1]', 'special', ['https://[64:ff9b::127.0.0.1]/x']],
  ['[::7f00:1]', 'special', ['https://[::127.0.0.1]/x']],
  ['[ff02::1]', 'special', ['https://[ff02::1]/x']],
  ['router', 'special', ['https://router/x', 'https://ROUTER./x']],
  ['a..b', 'special', ['https://a..b/x']],
  [
    'cdn.example',
    'public',
    ['https://cdn.example/x', 'https://CDN.Example./x', 'https://cdn.example../x', 'cdn.example'],
  ],
  ['xn--bcher-kva.example', 'public', ['https://bücher.example/x', 'https://XN--BCHER-KVA.example./x']],
  ['93.184.216.34', 'public', ['https://93.184.216.34/x', 'https://1572395042/x']],
  ['[2606:4700::1111]', 'public', ['https://[2606:4700:0:0::1111]/x']],
  ['[::ffff:808:808]', 'public', ['https://[::ffff:8.8.8.8]/x']],
];

describe('one canonical form of a host, whatever its spelling', () => {
  for (const [canonical, kind, spellings] of SPELLINGS) {
    it.each(spellings)(`%s is ${canonical}, ${kind}`, (spelling) => {
      expect(hostOf(spelling)).toEqual({ name: canonical, kind });
      expect(isPublicHost(spelling)).toBe(kind === 'public');
    });
  }

  it('finds no host where there is none', () => {
    for (const input of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
      'https://./x',
      'https://../x',
      'https://[fe80::1%25eth0]/x',
      '',
      'not a host at all',
    ]) {
      expect(hostOf(input), input).toBeNull();
      expect(isPublicHost(input), input).toBe(false);
    }
  });

  it('what the URL parser leaves alone, and why this module exists: trailing dots stay', () => {
    expect(new URL('https://localhost./x').hostname).toBe('localhost.');
    expect(new URL('https://router.localhost./x').hostname).toBe('router.localhost.');
    expect(new URL('https://127.0.0.1../x').hostname).toBe('127.0.0.1..');
    // What it does: every IPv4 spelling, IDNA, case, IPv6 compression, and no zone ids at all.
    expect(new URL('https://0x7f.1/x').hostname).toBe('127.0.0.1');
    expect(new URL('https://Bücher.Example/x').hostname).toBe('xn--bcher-kva.example');
    expect(new URL('https://[0:0:0:0:0:ffff:127.0.0.1]/x').hostname).toBe('[::ffff:7f00:1]');
    expect(() => new URL('https://[fe80::1%25eth0]/x')).toThrow();
  });
});

describe('every rule that judges a host asks the canonical form', () => {
  const PANEL = 'https://panel.example';

  it('reward images: no spelling of a host off the open internet is kept', () => {
    for (const [, kind, spellings] of SPELLINGS) {
      for (const spelling of spellings.filter((s) => s.startsWith('https://'))) {
        expect(safeImageUrl(spelling, PANEL) !== '', spelling).toBe(kind === 'public');
      }
    }
  });

  it('reward images: the panel’s own origin, however spelled, is the panel’s', () => {
    expect(safeImageUrl('http://LOCALHOST.:8787/img.png', 'http://localhost:8787')).toBe(
      'http://LOCALHOST.:8787/img.png',
    );
    expect(safeImageUrl('http://localhost:8787/img.png', 'http://localhost.:8787')).toBe(
      'http://localhost:8787/img.png',
    );
    expect(safeImageUrl('http://localhost:9999/img.png', 'http://localhost:8787')).toBe('');
  });

  it('plain http: only to this machine by the names the manifest can grant, however spelled', () => {
    for (const url of ['http://localhost:8787/', 'http://LOCALHOST.:8787/', 'http://0x7f.1:8787/', 'http://127.1/'])
      expect(plainHttpAllowed(url), url).toBe(true);
    for (const url of [
      'http://[::1]:8787/',
      'http://router.localhost/',
      'http://localhost.evil.example/',
      'http://127.0.0.1.nip.io/',
      'https://localhost/',
      'ftp://localhost/',
    ])
      expect(plainHttpAllowed(url), url).toBe(false);
  });

  it('the panel’s address is kept in its canonical form, so its host permission names the host requests go to', () => {
    expect(checkBaseUrl('https://Panel.Example.:8443/api/')).toEqual({
      ok: true,
      baseUrl: 'https://panel.example:8443/api',
      origin: 'https://panel.example:8443',
    });
    expect(checkBaseUrl('http://LOCALHOST.:8787')).toMatchObject({ ok: true, origin: 'http://localhost:8787' });
    expect(checkBaseUrl('http://0x7f000001:8787')).toMatchObject({ ok: true, origin: 'http://127.0.0.1:8787' });
    expect(checkBaseUrl('http://localhost.evil.example').ok).toBe(false);
    expect(checkBaseUrl('https://./').ok).toBe(false);
    expect(hostPermissionPattern('https://panel.example.:8443')).toBe('https://panel.example/*');
    expect(hostPermissionPattern('http://localhost.:8787')).toBe('http://localhost/*');
  });

  it('the image policy names http origins only on this machine', () => {
    expect(imageOrigin('http://localhost.:8787/a.png')).toBe('http://localhost.:8787');
    expect(imageOrigin('http://127.1:8787/a.png')).toBe('http://127.0.0.1:8787');
    expect(imageOrigin('http://localhost.evil.example/a.png')).toBeNull();
    expect(imageOrigin('http://[::1]/a.png')).toBeNull();
  });

  it('origins compare in the canonical form', () => {
    expect(canonicalOrigin('https://Panel.Example.:443/x')).toBe('https://panel.example');
    expect(canonicalOrigin('http://localhost.:8787')).toBe('http://localhost:8787');
    expect(canonicalOrigin('ftp://panel.example/')).toBeNull();
    expect(canonicalOrigin('not a url')).toBeNull();
  });
});
