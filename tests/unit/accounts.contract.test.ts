import { AccountFormSchema, InstagramProfileSchema } from '../../src/contract/accounts';
import { parseProxy } from '../../src/contract/proxy';

describe('accounts contract', () => {
  it('the profile form accepts exactly the proxies the shared grammar (and so the platform client) accepts', () => {
    const samples = [
      'http://1.2.3.4:8080',
      'https://proxy.example.com:443',
      'socks5://u:p@10.0.0.1:1080',
      'socks5h://host:1',
      'socks://h:2',
      'http://[::1]:3128',
      '1.2.3.4:8080',
      '1.2.3.4:8080:user:pass',
      'ftp://1.2.3.4:21',
      'http://host:0',
      'http://host:65536',
      'http://host:80/path',
      'http://host:80?x=1',
      'just text',
      '',
      'http://',
      'host',
      'a:b:c',
      'socks5://h:abc',
    ];
    const accepted = samples.filter((s) => AccountFormSchema.safeParse({ proxy: s }).success);
    expect(accepted).toEqual(samples.filter((s) => parseProxy(s).ok));
    expect(accepted).toHaveLength(8);
  });

  it('reports every SPEC §5 message at once', () => {
    const r = AccountFormSchema.safeParse({ inYouTube: true, inInstagram: true });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => `${String(i.path[0])}:${i.message}`)).toEqual([
      'proxy:kadr.validation.proxy_required',
      'YouTubeAuthClientId:kadr.validation.client_id_required',
      'YouTubeAuthClientSecret:kadr.validation.client_secret_required',
      'InstagramLogin:kadr.validation.instagram_login_required',
      'InstagramPassword:kadr.validation.instagram_password_required',
    ]);
    expect(AccountFormSchema.parse({ proxy: ' 1.2.3.4:80 ' })).toMatchObject({
      proxy: '1.2.3.4:80',
      ipVersion: 'ipv4',
      inYouTube: false,
    });
  });

  it('Instagram panel needs a name or a description', () => {
    expect(
      InstagramProfileSchema.safeParse({ profileName: '', profileDescription: ' ' }).error!.issues.map(
        (i) => i.path[0],
      ),
    ).toEqual(['profileName', 'profileDescription']);
    expect(InstagramProfileSchema.safeParse({ profileName: 'n' }).success).toBe(true);
  });
});
