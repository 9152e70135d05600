import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { checkWebhookUrl } from './webhook-url.js';

function refusal(url: string, allowPrivate = false): string {
  try {
    checkWebhookUrl(url, allowPrivate);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const body = (err as AppError).toBody();
    expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body/url' }] });
    return body.message;
  }
  throw new Error(`${url} was accepted`);
}

describe('which URLs a webhook may point at', () => {
  it('accepts https to a public host, as written', () => {
    expect(checkWebhookUrl('https://hooks.example.com/tasks?x=1', false)).toBe('https://hooks.example.com/tasks?x=1');
    expect(checkWebhookUrl('https://93.184.216.34/in', false)).toBe('https://93.184.216.34/in');
  });

  it('refuses plain http, saying https is needed', () => {
    expect(refusal('http://hooks.example.com/')).toMatch(/must be https/);
    expect(refusal('ftp://hooks.example.com/')).toMatch(/must be https/);
  });

  it('refuses loopback, private and link-local addresses, naming the kind', () => {
    expect(refusal('https://127.0.0.1/')).toMatch(/loopback/);
    expect(refusal('https://localhost:8443/')).toMatch(/loopback/);
    expect(refusal('https://[::1]/')).toMatch(/loopback/);
    expect(refusal('https://10.1.2.3/')).toMatch(/private network/);
    expect(refusal('https://192.168.0.10/')).toMatch(/private network/);
    expect(refusal('https://169.254.169.254/latest/meta-data')).toMatch(/link-local/);
    expect(refusal('https://[fe80::1]/')).toMatch(/link-local/);
  });

  it.each([
    ['https://localhost.:8080/', /localhost\., a loopback/],
    ['https://LOCALHOST/', /loopback/],
    ['https://Localhost../', /loopback/],
    ['https://hooks.localhost./', /loopback/],
    ['https://localhost.localdomain/', /loopback/],
    ['https://127.1/', /127\.0\.0\.1, a loopback/],
    ['https://0x7f.0.0.1/', /127\.0\.0\.1, a loopback/],
    ['https://2130706433/', /127\.0\.0\.1, a loopback/],
    ['https://0177.0.0.1/', /127\.0\.0\.1, a loopback/],
    ['https://127.0.0.1./', /loopback/],
    ['https://[::ffff:127.0.0.1]/', /loopback/],
    ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://0/', /unspecified/],
    ['https://[::]/', /unspecified/],
    ['https://0xa.1.2.3/', /private network/],
    ['https://[::ffff:192.168.0.1]/', /private network/],
    ['https://[fd00:ec2::254]/', /private network/],
    ['https://printer.local./', /private network name/],
    ['https://nas.home.arpa/', /private network name/],
    ['https://metadata.google.internal/', /private network name/],
    ['https://redis:6379/', /single label/],
  ])('refuses %s, another spelling of a loopback or private host', (url, reason) => {
    expect(refusal(url)).toMatch(reason);
  });

  it('accepts a public name with a trailing dot, and public addresses in other spellings, as the URL parser writes them', () => {
    expect(checkWebhookUrl('https://hooks.example.com./in', false)).toBe('https://hooks.example.com./in');
    expect(checkWebhookUrl('https://0x5d.0xb8.0xd8.0x22/in', false)).toBe('https://93.184.216.34/in');
    expect(checkWebhookUrl('https://[2606:2800:220:1::]/in', false)).toBe('https://[2606:2800:220:1::]/in');
  });

  it('with CONNECTOR_ALLOW_PRIVATE_NETWORKS, takes the other spellings of loopback as loopback (plain http allowed)', () => {
    expect(checkWebhookUrl('http://localhost.:9000/hook', true)).toBe('http://localhost.:9000/hook');
    expect(checkWebhookUrl('http://127.1:9000/hook', true)).toBe('http://127.0.0.1:9000/hook');
    expect(refusal('http://printer.local/hook', true)).toMatch(/must be https/);
  });

  it('refuses credentials and fragments', () => {
    expect(refusal('https://user:pass@hooks.example.com/')).toMatch(/credentials/);
    expect(refusal('https://user@hooks.example.com/')).toMatch(/credentials/);
    expect(refusal('https://hooks.example.com/#part')).toMatch(/fragment/);
  });

  it('refuses what is not an absolute URL', () => {
    expect(refusal('hooks.example.com/in')).toMatch(/absolute URL/);
  });

  it('with CONNECTOR_ALLOW_PRIVATE_NETWORKS, lets a loopback receiver use http and private addresses pass', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', true)).toBe('http://127.0.0.1:9000/hook');
    expect(checkWebhookUrl('http://localhost:9000/hook', true)).toBe('http://localhost:9000/hook');
    expect(checkWebhookUrl('https://10.0.0.5/hook', true)).toBe('https://10.0.0.5/hook');
    expect(refusal('http://10.0.0.5/hook', true)).toMatch(/must be https/);
  });
});
