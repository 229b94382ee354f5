import { hasProxyPassword, maskProxy } from '../../src/accounts/maskProxy';

describe('maskProxy', () => {
  it("hides a proxy's password and nothing else", () => {
    expect(maskProxy('http://user:pass@203.0.113.1:8080')).toBe('http://user:••••••@203.0.113.1:8080');
    expect(maskProxy('socks5://u:p%40ss@[2001:db8::1]:1080')).toBe('socks5://u:••••••@[2001:db8::1]:1080');
    expect(maskProxy('user:secret@10.0.0.1:3128')).toBe('user:••••••@10.0.0.1:3128');
  });
  it('leaves an address without a password as it is', () => {
    for (const url of ['http://203.0.113.1:8080', 'socks5://10.1.1.1:1080', 'http://user@10.0.0.1:80', ''])
      expect(maskProxy(url)).toBe(url);
    expect(hasProxyPassword('http://203.0.113.1:8080')).toBe(false);
    expect(hasProxyPassword('http://a:b@203.0.113.1:8080')).toBe(true);
    expect(hasProxyPassword(null)).toBe(false);
  });
});
