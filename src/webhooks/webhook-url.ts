import { refusedHostReason } from '../connectors/connectors.component.js';
import { errors } from '../platform/errors.js';

/**
 * A subscriber URL we will POST to, or the 400 saying why not. https only, and only public addresses,
 * judged as the connectors' outgoing requests are (refusedHostReason, src/connectors/address-policy.ts:
 * every spelling of a loopback or private address, and the names that lead there); with
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
  const reason = refusedHostReason(url.hostname);
  const loopback = reason === 'a loopback address';
  if (url.protocol !== 'https:') {
    if (url.protocol === 'http:' && loopback && allowPrivateNetworks) return url.href;
    throw refused(
      loopback
        ? 'must be https (plain http is allowed only for a loopback receiver when CONNECTOR_ALLOW_PRIVATE_NETWORKS is on)'
        : 'must be https',
    );
  }
  if (allowPrivateNetworks) return url.href;
  if (reason) throw refused(`points at ${host}, ${reason}; webhooks go to public internet addresses only`);
  return url.href;
}

const refused = (why: string) => errors.validation([{ path: '/body/url', message: why }], `The webhook URL ${why}.`);
