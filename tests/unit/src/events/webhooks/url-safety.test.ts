import { networkInterfaces } from 'node:os';
import { hostOnList, parseWebhookUrl, refusalOf, safeAddresses, safeChatAddresses } from '../../../../../src/events/webhooks/url-safety';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };
const refused = (address: string, policy: Parameters<typeof refusalOf>[1]) => ({ address, refused: refusalOf(address, policy) !== null });

describe('webhook URL safety', () => {
  it('always refuses link-local, metadata, unspecified, multicast, broadcast and reserved addresses, however they are written', () => {
    for (const address of [
      ...['169.254.169.254', '169.254.0.1', 'fe80::1', 'fe80::1%eth0', '0.0.0.0', '0.1.2.3', '::', '100.100.100.200', 'fd00:ec2::254', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1'],
      // the metadata address inside IPv6: mapped, compatible, translated, NAT64, 6to4, Teredo (client bits inverted)
      ...['::ffff:169.254.169.254', '::169.254.169.254', '::ffff:0:169.254.169.254', '64:ff9b::169.254.169.254', '64:ff9b:1::a9fe:a9fe', '2002:a9fe:a9fe::', '2001:0:4136:e378:8000:63bf:5601:5601'],
    ]) {
      expect(refused(address, lenient)).toEqual({ address, refused: true });
    }
  });

  it('refuses loopback, private and every other special-purpose address unless allowed', () => {
    for (const address of [
      ...['127.0.0.1', '127.1.2.3', '::1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', 'fd12::1', '::ffff:10.0.0.1'],
      // the rest of IANA's IPv4 special-purpose registry
      ...['192.0.0.1', '192.0.0.170', '192.0.2.1', '192.31.196.1', '192.52.193.1', '192.88.99.1', '192.175.48.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9'],
      // loopback written inside IPv6 (the forms the issue found accepted)
      ...['::127.0.0.1', '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
      // the rest of IANA's IPv6 special-purpose registry, and what lies outside global unicast (2000::/3)
      ...['fec0::1', '100::1', '2001::1', '2001:2::1', '2001:10::1', '2001:20::1', '2001:db8::1', '3fff::1', '5f00::1', '2002::1', 'fc00::1', '4000::1', '8000::1', '64:ff9b::8.8.8.8'],
    ]) {
      expect(refused(address, strict)).toEqual({ address, refused: true });
    }
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.0.0.1', '::127.0.0.1', '64:ff9b::127.0.0.1', '2002:7f00:1::', 'fec0::1', '2001:db8::1']) {
      expect(refused(address, lenient)).toEqual({ address, refused: false });
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '192.0.1.1', '198.20.0.1', '2606:4700::1111', '2a00:1450:4009:81f::200e', '::ffff:93.184.215.14']) {
      expect(refused(address, strict)).toEqual({ address, refused: false });
    }
  });

  it("refuses the server's own addresses, whatever range they are in, unless private addresses are allowed", () => {
    const ownAddresses = () => ['93.184.215.14', '2606:4700::1111'];
    for (const address of ['93.184.215.14', '::ffff:93.184.215.14', '2606:4700:0:0::1111']) {
      expect(refusalOf(address, { allowPrivate: false, ownAddresses })).toMatch(/an address of this server/);
      expect(refusalOf(address, { allowPrivate: true, ownAddresses })).toBeNull();
    }
    // by default the addresses of every network interface
    for (const { address } of Object.values(networkInterfaces()).flatMap((list) => list ?? [])) expect(refused(address, strict)).toEqual({ address, refused: true });
  });

  it('refuses a name when any of its addresses is refused, so a mixed answer cannot slip through', async () => {
    const resolve = async () => ['93.184.215.14', '10.0.0.1'];
    await expect(safeAddresses(new URL('https://x.example/'), { allowPrivate: false, resolve })).rejects.toThrow('address not allowed: x.example resolves to 10.0.0.1, a loopback, private or special-purpose address');
    await expect(safeAddresses(new URL('https://x.example/'), { allowPrivate: true, resolve })).resolves.toEqual(['93.184.215.14', '10.0.0.1']);
    await expect(safeAddresses(new URL('http://[::ffff:0:127.0.0.1]/'), strict)).rejects.toThrow('address not allowed: ::ffff:0:7f00:1 is a loopback, private or special-purpose address');
  });

  it('takes http and https URLs only, without credentials', () => {
    expect(() => parseWebhookUrl('file:///etc/passwd')).toThrow('url must use http or https');
    expect(() => parseWebhookUrl('gopher://x/')).toThrow('url must use http or https');
    expect(() => parseWebhookUrl('https://a:b@x/')).toThrow('url must not carry a user name or password');
    expect(() => parseWebhookUrl('https://example.com:0/hook')).toThrow("url's port must be from 1 to 65535, not 0");
    expect(() => parseWebhookUrl('http://example.com:000/')).toThrow("url's port must be from 1 to 65535, not 0");
    expect(parseWebhookUrl('https://example.com:1/hook').port).toBe('1');
    expect(parseWebhookUrl('https://hooks.example.com/a?b=c').toString()).toBe('https://hooks.example.com/a?b=c');
  });
});

describe('Slack and Teams webhook URLs', () => {
  const publicName = async () => ['93.184.215.14'];
  const check = (url: string, policy: Parameters<typeof safeChatAddresses>[2], format: 'slack' | 'teams' = 'slack') => safeChatAddresses(new URL(url), format, policy);

  it('match the host list: a name exactly, `*.` any name ending in the rest (one label or more), never the bare name', () => {
    const list = ['hooks.slack.com', '*.logic.azure.com'];
    expect(hostOnList('hooks.slack.com', list)).toBe(true);
    expect(hostOnList('HOOKS.slack.com.', list)).toBe(true);
    expect(hostOnList('prod-27.westus.logic.azure.com', list)).toBe(true);
    expect(hostOnList('logic.azure.com', list)).toBe(false);
    expect(hostOnList('evillogic.azure.com', list)).toBe(false);
    expect(hostOnList('hooks.slack.com.evil.example', list)).toBe(false);
    expect(hostOnList('xhooks.slack.com', list)).toBe(false);
  });

  it('need https and a host on the list (Slack’s and Microsoft’s by default), and then every webhook’s address rules', async () => {
    await expect(check('https://hooks.slack.com/services/T/B/X', { allowPrivate: false, resolve: publicName })).resolves.toEqual(['93.184.215.14']);
    await expect(check('https://prod-00.westeurope.logic.azure.com/workflows/x', { allowPrivate: false, resolve: publicName }, 'teams')).resolves.toEqual(['93.184.215.14']);
    await expect(check('http://hooks.slack.com/services/T/B/X', { allowPrivate: true, resolve: publicName })).rejects.toThrow(
      'a Slack webhook URL must use https: use the https URL Slack gave you (plain http is allowed only to a loopback address, with WEBHOOK_ALLOW_PRIVATE=true)',
    );
    await expect(check('https://hooks.example.com/x', { allowPrivate: false, resolve: publicName }, 'teams')).rejects.toThrow(
      "url's host hooks.example.com is not a chat webhook host this service posts Teams messages to (hooks.slack.com, *.webhook.office.com, *.logic.azure.com, *.powerplatform.com): use the URL Teams gave you, or ask the operator to add its host to CHAT_WEBHOOK_HOSTS",
    );
    await expect(check('https://hooks.example.com/x', { allowPrivate: false, resolve: publicName, chatHosts: ['hooks.example.com'] })).resolves.toEqual(['93.184.215.14']);
    // a listed name that resolves to a private address is refused as any webhook's is, and allowed as any webhook's is
    const privateName = async () => ['10.1.2.3'];
    await expect(check('https://hooks.slack.com/x', { allowPrivate: false, resolve: privateName })).rejects.toMatchObject({ message: expect.stringMatching(/^address not allowed: hooks.slack.com resolves to 10.1.2.3/), allowedWithPrivate: true });
    await expect(check('https://hooks.slack.com/x', { allowPrivate: true, resolve: privateName })).resolves.toEqual(['10.1.2.3']);
  });

  it('may be a loopback receiver, http or https, whatever its host, with WEBHOOK_ALLOW_PRIVATE=true only', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'https://127.0.0.1/hook', 'http://[::1]:9/x', 'http://localhost:3000/x']) {
      await expect(check(url, { allowPrivate: true, resolve: async () => ['127.0.0.1'] })).resolves.toEqual(expect.any(Array));
      await expect(check(url, { allowPrivate: false, resolve: async () => ['127.0.0.1'] })).rejects.toMatchObject({ allowedWithPrivate: true });
    }
    // `localhost` that resolves elsewhere is no loopback receiver
    await expect(check('http://localhost/x', { allowPrivate: true, resolve: async () => ['10.0.0.8'] })).rejects.toThrow("url's host localhost resolves to 10.0.0.8, not a loopback address");
    // a private address that is not loopback still needs https and a listed host
    await expect(check('http://10.0.0.8/x', { allowPrivate: true })).rejects.toThrow('a Slack webhook URL must use https');
  });
});
