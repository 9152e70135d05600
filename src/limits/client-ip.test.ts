import { describe, expect, it } from 'vitest';
import { ipBudgetKey } from './client-ip.js';

describe('the key of a per-IP budget', () => {
  it('counts an IPv4-mapped IPv6 socket address as the IPv4 address', () => {
    expect(ipBudgetKey('::ffff:198.51.100.7')).toBe(ipBudgetKey('198.51.100.7'));
  });

  it('counts every address of one IPv6 /64 together, and different /64s apart', () => {
    expect(ipBudgetKey('2001:db8:1:2::1')).toBe(ipBudgetKey('2001:db8:1:2:ffff:0:abcd:9'));
    expect(ipBudgetKey('2001:db8:1:2::1')).not.toBe(ipBudgetKey('2001:db8:1:3::1'));
  });

  it('keeps an address it cannot parse as it is rather than failing the request', () => {
    expect(ipBudgetKey('unknown')).toBe('unknown');
  });
});
