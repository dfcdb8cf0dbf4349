import { parseWebhookUrl, refusalOf, safeAddresses } from '../../../../src/webhooks/url-safety';

describe('webhook URL safety', () => {
  it('always refuses link-local, metadata, unspecified and multicast addresses', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', 'fe80::1', '0.0.0.0', '::', '100.100.100.200', 'fd00:ec2::254', '224.0.0.1', '::ffff:169.254.169.254']) {
      expect({ address, refused: refusalOf(address, true) !== null }).toEqual({ address, refused: true });
    }
  });

  it('refuses loopback and private ranges unless allowed', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', 'fd12::1', '::ffff:10.0.0.1']) {
      expect({ address, refused: refusalOf(address, false) !== null }).toEqual({ address, refused: true });
      expect({ address, allowed: refusalOf(address, true) === null }).toEqual({ address, allowed: true });
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '2606:4700::1111']) expect(refusalOf(address, false)).toBeNull();
  });

  it('refuses a name when any of its addresses is refused, so a mixed answer cannot slip through', async () => {
    const resolve = async () => ['93.184.215.14', '10.0.0.1'];
    await expect(safeAddresses(new URL('https://x.example/'), { allowPrivate: false, resolve })).rejects.toThrow('x.example resolves to 10.0.0.1 is a loopback or private address');
    await expect(safeAddresses(new URL('https://x.example/'), { allowPrivate: true, resolve })).resolves.toEqual(['93.184.215.14', '10.0.0.1']);
  });

  it('takes http and https URLs only, without credentials', () => {
    expect(() => parseWebhookUrl('file:///etc/passwd')).toThrow('url must use http or https');
    expect(() => parseWebhookUrl('gopher://x/')).toThrow('url must use http or https');
    expect(() => parseWebhookUrl('https://a:b@x/')).toThrow('url must not carry a user name or password');
    expect(parseWebhookUrl('https://hooks.example.com/a?b=c').toString()).toBe('https://hooks.example.com/a?b=c');
  });
});
