import type { IncomingMessage } from 'node:http';

/**
 * The client's address as express's `req.ip` gives it with `trust proxy` set to one hop (TRUST_PROXY):
 * the last X-Forwarded-For entry, which the proxy in front of us appended, else the peer. For the
 * WebSocket door, whose upgrade requests never pass through express.
 */
export function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!trustProxy) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const entries = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.at(-1) ?? peer;
}
