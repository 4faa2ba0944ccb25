/** The HTTP proxy in this process, on a free port, with its log and repairs collected. */

import type { ProxyEvent } from '../../../src/proxy/events.js';
import { type HttpProxyOptions, type RunningHttpProxy, startHttpProxy } from '../../../src/proxy/http.js';

/** Starts a proxy to `url` (2025-06-18 until told otherwise); `proxies` gets it, for the test to close. */
export async function loggingProxy(
  url: string,
  proxies: RunningHttpProxy[],
  extra: Partial<HttpProxyOptions> = {},
): Promise<{ proxy: RunningHttpProxy; log: string[]; repaired: ProxyEvent[] }> {
  const log: string[] = [];
  const repaired: ProxyEvent[] = [];
  const proxy = await startHttpProxy({
    upstream: url,
    host: '127.0.0.1',
    port: 0,
    protocolVersion: '2025-06-18',
    onLog: (line) => log.push(line),
    onRepaired: (event) => repaired.push(event),
    ...extra,
  });
  proxies.push(proxy);
  return { proxy, log, repaired };
}
