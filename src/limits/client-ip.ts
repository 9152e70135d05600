import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * The address a per-IP budget is keyed by. `req.ip` is the socket address unless the app's
 * `trust proxy` (TRUST_PROXY) says which X-Forwarded-For hops to believe, so a forged header
 * changes nothing by default.
 */
export function clientIpOf(req: Request): string {
  return ipBudgetKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/**
 * IPv4-mapped IPv6 addresses count as their IPv4 address, and IPv6 addresses by their /64: one
 * host usually holds a whole /64, and must not get a fresh budget from each address in it.
 */
export function ipBudgetKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
