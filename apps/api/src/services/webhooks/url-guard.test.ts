import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { loadConfig } from '../../config.ts';
import { assertPublicUrl, guardedLookup, isPublicAddress, WEBHOOK_URL_MESSAGES, webhookUrlPolicy } from './url-guard.ts';

const refused = { webhook_url: [WEBHOOK_URL_MESSAGES.private] };

async function fieldsOf(url: string, allowPrivate = false) {
  try {
    await assertPublicUrl(url, { allowPrivate });
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('bad_request');
    return e.fields;
  }
}

describe('isPublicAddress', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback, anywhere in 127/8', '127.255.0.9'],
    ['IPv6 loopback', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, upper end', '172.31.255.254'],
    ['private 192.168/16', '192.168.1.10'],
    ['IPv6 unique local fc00::/7', 'fd12:3456::1'],
    ['IPv6 unique local fc00::', 'fc00::1'],
    ['link-local 169.254/16 (cloud metadata)', '169.254.169.254'],
    ['IPv6 link-local fe80::/10', 'fe80::1'],
    ['unspecified 0.0.0.0', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['CGNAT 100.64/10, upper end', '100.127.255.254'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped link-local, hex form', '::ffff:a9fe:a9fe'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_label, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv4 next to 172.16/12', '172.32.0.1'],
    ['public IPv4 next to CGNAT', '100.128.0.1'],
    ['public IPv6', '2606:2800:220:1:248:1893:25c8:1946'],
    ['IPv4-mapped public', '::ffff:93.184.216.34'],
  ])('accepts %s (%s)', (_label, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('assertPublicUrl', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'https://10.0.0.5/hook',
    'http://172.20.1.1/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://100.64.1.1/',
    'http://[::1]/hook',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/hook',
  ])('refuses %s with the field message', async (url) => {
    expect(await fieldsOf(url)).toEqual(refused);
  });

  it('accepts a URL whose host is a public address', async () => {
    expect(await fieldsOf('https://93.184.216.34/hooks')).toBeNull();
    expect(await fieldsOf('http://[2606:2800:220:1:248:1893:25c8:1946]/x')).toBeNull();
  });

  it('accepts private and loopback addresses when the server allows them', async () => {
    expect(await fieldsOf('http://127.0.0.1:9/hook', true)).toBeNull();
    expect(await fieldsOf('http://[::1]/hook', true)).toBeNull();
  });

  it('refuses schemes other than http and https, even when private addresses are allowed', async () => {
    for (const url of [
      'ftp://93.184.216.34/x',
      'file:///etc/passwd',
      'gopher://93.184.216.34/',
      'javascript:alert(1)',
    ]) {
      expect(await fieldsOf(url, true)).toEqual({ webhook_url: [WEBHOOK_URL_MESSAGES.scheme] });
    }
  });

  it('refuses text that is not a URL', async () => {
    expect(await fieldsOf('not a url')).toEqual({ webhook_url: [WEBHOOK_URL_MESSAGES.invalid] });
  });

  it('refuses a host that does not resolve', async () => {
    expect(await fieldsOf('http://does-not-exist.invalid/hook')).toEqual({
      webhook_url: [WEBHOOK_URL_MESSAGES.unresolved],
    });
  });
});

describe('guardedLookup (the connection-time check against DNS rebinding)', () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) => {
      guardedLookup(host, { all }, (err, address) => resolve({ err, address }));
    });

  it('refuses a name that resolves to a loopback address', async () => {
    const { err } = await lookup('localhost', false);
    expect(err?.code).toBe('EWEBHOOKPRIVATE');
    const all = await lookup('localhost', true);
    expect(all.err?.code).toBe('EWEBHOOKPRIVATE');
  });
});

describe('webhook ports', () => {
  const portRefused = { webhook_url: [WEBHOOK_URL_MESSAGES.port] };
  const policyFields = async (url: string, policy: Parameters<typeof assertPublicUrl>[1]) => {
    try {
      await assertPublicUrl(url, policy);
      return null;
    } catch (err) {
      return (err as AppError).fields;
    }
  };

  it.each(['http://93.184.216.34:8080/hook', 'https://93.184.216.34:25/', 'http://93.184.216.34:5432/', 'http://[2606:2800:220:1:248:1893:25c8:1946]:8443/x'])(
    'refuses a webhook URL on a port other than 80 and 443: %s',
    async (url) => {
      expect(await fieldsOf(url)).toEqual(portRefused);
    },
  );

  it('accepts the standard ports, written or implied', async () => {
    for (const url of ['http://93.184.216.34/', 'http://93.184.216.34:80/', 'https://93.184.216.34:443/x', 'http://93.184.216.34:443/']) {
      expect(await fieldsOf(url), url).toBeNull();
    }
  });

  it('accepts a port listed in WEBHOOK_ALLOWED_PORTS, and only that one', async () => {
    const policy = { allowPrivate: false, allowedPorts: [8443] };
    expect(await policyFields('https://93.184.216.34:8443/hook', policy)).toBeNull();
    expect(await policyFields('https://93.184.216.34:8444/hook', policy)).toEqual(portRefused);
  });

  it('allows any port when WEBHOOK_ALLOW_PRIVATE is set (the development and test setting)', async () => {
    expect(await fieldsOf('http://127.0.0.1:45678/hook', true)).toBeNull();
  });

  it('reads the allowed ports from the configuration', () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_PORTS: '8443, 9000' });
    expect(webhookUrlPolicy(config)).toEqual({ allowPrivate: false, allowedPorts: [8443, 9000] });
    expect(loadConfig({}).WEBHOOK_ALLOWED_PORTS).toEqual([]);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: '0x50' })).toThrow(/WEBHOOK_ALLOWED_PORTS/);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: '70000' })).toThrow(/WEBHOOK_ALLOWED_PORTS/);
  });
});
