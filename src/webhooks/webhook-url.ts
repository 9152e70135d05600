import { isIP } from 'node:net';
import { refusedAddressReason } from '../connectors/connectors.component.js';
import { errors } from '../platform/errors.js';

/**
 * A subscriber URL we will POST to, or the 400 saying why not. https only, and only public addresses,
 * judged as the connectors' outgoing requests are (src/connectors/address-policy.ts); with
 * CONNECTOR_ALLOW_PRIVATE_NETWORKS private addresses pass and a loopback receiver may be plain http
 * (local development). Host names are judged again after DNS resolution, at every delivery.
 */
export function checkWebhookUrl(raw: string, allowPrivateNetworks: boolean): string {
  const url = URL.parse(raw);
  if (!url) throw refused('is not an absolute URL (https://host/path)');
  if (url.username !== '' || url.password !== '') {
    throw refused('must not carry credentials (user:password@): the receiver checks the signature instead');
  }
  if (url.hash !== '') throw refused('must not have a #fragment: it is never sent');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = isLoopbackHost(host);
  if (url.protocol !== 'https:') {
    if (url.protocol === 'http:' && loopback && allowPrivateNetworks) return url.href;
    throw refused(
      loopback
        ? 'must be https (plain http is allowed only for a loopback receiver when CONNECTOR_ALLOW_PRIVATE_NETWORKS is on)'
        : 'must be https',
    );
  }
  if (allowPrivateNetworks) return url.href;
  if (loopback && isIP(host) === 0) throw refused(`points at ${host}, a loopback address; webhooks go to public internet addresses only`);
  const reason = isIP(host) === 0 ? null : refusedAddressReason(host);
  if (reason) throw refused(`points at ${host}, ${reason}; webhooks go to public internet addresses only`);
  return url.href;
}

function isLoopbackHost(host: string): boolean {
  const lower = host.toLowerCase();
  if (lower === 'localhost' || lower.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && refusedAddressReason(host) === 'a loopback address';
}

const refused = (why: string) => errors.validation([{ path: '/body/url', message: why }], `The webhook URL ${why}.`);
