// Which address Fastify reports as request.ip, from TRUST_PROXY (config.ts). Every per-address
// limit (failed API requests, panel sign-in, sign-up and reset) counts by request.ip.
//
// Fastify 5 reads a numeric trustProxy as "trust nothing" (a hop count cannot check who the
// immediate peer is), so a hop count is given to it as proxy-addr's function instead: hop 0 is
// the socket's peer, hop 1 the right-most X-Forwarded-For entry, and so on; the first hop not
// trusted is the client. With one proxy that is the entry the proxy appended, never one the
// client wrote.
export type TrustProxy = false | string | ((address: string, hop: number) => boolean);

export function fastifyTrustProxy(setting: false | number | string): TrustProxy {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}
