import { describe, expect, it } from 'vitest';
import { refusedAddressReason, refusedHostReason } from './address-policy.js';

describe('the outgoing address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::7f00:1', 'reserved'],
  ])('refuses %s as %s', (address, kind) => {
    expect(refusedAddressReason(address)).toContain(kind);
  });

  it.each(['140.82.112.6', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:140.82.112.6', '64:ff9b::808:808'])(
    'lets the public address %s through',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );

  it('refuses what is not an address at all', () => {
    expect(refusedAddressReason('example.com')).toBe('not an IP address');
  });
});

describe('the host policy, before any DNS lookup', () => {
  it.each([
    ['localhost.', 'loopback'],
    ['LOCALHOST', 'loopback'],
    ['app.localhost', 'loopback'],
    ['[::1]', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['[::]', 'unspecified'],
    ['printer.local', 'private network name'],
    ['db', 'single label'],
  ])('refuses %s as %s', (host, kind) => {
    expect(refusedHostReason(host)).toContain(kind);
  });

  it.each(['hooks.example.com', 'hooks.example.com.', '93.184.216.34', '[2606:2800:220:1::]', 'localhost.example.com'])('leaves %s to its addresses', (host) => {
    expect(refusedHostReason(host)).toBeNull();
  });
});
