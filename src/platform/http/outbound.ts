/**
 * One outbound HTTP request to a URL a client chose, made safe against server-side request forgery:
 * - only http and https, no credentials in the URL;
 * - the host name is resolved once, every resolved address must be a public unicast address (loopback
 *   and private networks only when the operator allows them), and the connection goes to a checked
 *   address only: the socket's `lookup` hands back the checked addresses, so nothing resolves the name
 *   a second time (no DNS rebinding between the check and the connect). Host header, TLS SNI and
 *   certificate check still use the original name;
 * - redirects are not followed (a 3xx is just a status);
 * - one time limit covers resolution, connection, TLS and the whole response;
 * - the response body is read up to a limit, then the connection is dropped.
 */
import type { LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 2048;

/** What the operator allows calls to user-given URLs: which address ranges, and how long a call may take. */
export interface OutboundRules {
  /** Loopback (127.0.0.0/8, ::1); private networks (RFC 1918, fc00::/7, 100.64.0.0/10). */
  allow: { loopback: boolean; privateNetworks: boolean };
  timeoutMs: number;
}

export interface DeliveryOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Resolution + connection + TLS + whole response; default 10 s. */
  timeoutMs?: number;
  /** Bytes of the response body read (and returned as the excerpt); default 2 KiB. */
  maxResponseBytes?: number;
  /** Operator switches: loopback (127.0.0.0/8, ::1); private networks (RFC 1918, fc00::/7, 100.64.0.0/10). */
  allow?: { loopback?: boolean; privateNetworks?: boolean };
  /**
   * A keep-alive agent of the caller's own (one per set of rules, never shared with calls under
   * other rules), for callers that send many requests to one place: a pooled connection goes to an
   * address that was checked when it was opened. Without one, every call opens a fresh connection.
   */
  agent?: http.Agent;
}

export interface DeliveryAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first `maxResponseBytes` of the body as UTF-8 (an incomplete last character left out). */
  bodyExcerpt: string;
  /** True when the body was longer than `maxResponseBytes` and the rest was not read. */
  truncated: boolean;
  /** From the start of the call (resolution included) to the end of the read. */
  latencyMs: number;
  /** `Retry-After` in seconds from now, when the answer had a readable one. */
  retryAfterSeconds?: number;
}

export type RefusalReason = 'invalid_url' | 'scheme' | 'credentials' | 'address';

/** The URL may not be called at all: retrying will not help. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
  constructor(
    message: string,
    readonly reason: RefusalReason,
    /** For reason `address`: the refused address and its ipaddr.js range name (`loopback`, `private`, …). */
    readonly address?: string,
    readonly addressClass?: string,
  ) {
    super(message);
  }
}

export type FailureKind = 'dns' | 'connect' | 'tls' | 'timeout' | 'response';

/** The call was allowed but did not get a complete answer: retrying may help. */
export class OutboundFailed extends Error {
  override name = 'OutboundFailed';
  constructor(
    message: string,
    readonly kind: FailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Readable names of the address classes in refusal messages; any other non-unicast range is "special-purpose". */
const CLASS_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private network (RFC 1918)',
  uniqueLocal: 'private network (unique local, fc00::/7)',
  carrierGradeNat: 'shared address space (carrier-grade NAT, 100.64.0.0/10)',
  linkLocal: 'link-local (incl. the 169.254.169.254 cloud metadata service)',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/** IPv6 addresses outside 2000::/3 are not globally routable unicast even where ipaddr.js says `unicast` (e.g. ::7f00:1). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Sends one request under the rules at the top of this file; throws OutboundRefused or OutboundFailed. */
export async function safeDelivery(url: string, options: DeliveryOptions = {}): Promise<DeliveryAnswer> {
  const started = performance.now();
  const target = parseTarget(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const timedOut = () =>
    new OutboundFailed(`No complete answer from ${target.host} within ${timeoutMs} ms`, 'timeout');
  try {
    const addresses = await untilAborted(resolve(target.host), deadline.signal, timedOut);
    for (const { address } of addresses) checkAddress(address, target.host, options.allow ?? {});
    const answer = await exchange(target, addresses, options, deadline.signal, timedOut);
    return { ...answer, latencyMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a URL may be called under the operator's rules, without calling it: to refuse when it is
 * saved what every call would refuse. Throws OutboundRefused. A host name that does not resolve
 * (yet, or within the time limit) passes: its addresses are checked again at every call anyway.
 */
export async function checkDestination(url: string, rules: OutboundRules): Promise<void> {
  const target = parseTarget(url);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), rules.timeoutMs);
  let addresses: LookupAddress[];
  try {
    addresses = await untilAborted(
      resolve(target.host),
      deadline.signal,
      () => new OutboundFailed(`${target.host} did not resolve in time`, 'dns'),
    );
  } catch (error) {
    if (error instanceof OutboundFailed) return;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  for (const { address } of addresses) checkAddress(address, target.host, rules.allow);
}

/**
 * `Retry-After` as seconds from `now`: delay-seconds or an HTTP date (a past date gives 0);
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now = new Date()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date names its month; without a letter Date.parse would take things like "-5" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

interface Target {
  url: URL;
  /** The host name, or the IP literal without IPv6 brackets. */
  host: string;
}

function parseTarget(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused('Refused: not a valid URL', 'invalid_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new OutboundRefused(`Refused: the scheme ${parsed.protocol} is not http or https`, 'scheme');
  }
  if (parsed.username || parsed.password) {
    throw new OutboundRefused('Refused: the URL holds credentials', 'credentials');
  }
  // The WHATWG parser has already normalised IPv4 spellings such as 0x7f.1 or 2130706433 to 127.0.0.1.
  return { url: parsed, host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') };
}

/** All addresses of the host, resolved once; an IP literal is its own address. */
async function resolve(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  let addresses: LookupAddress[];
  try {
    addresses = await dns.lookup(host, { all: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new OutboundFailed(`Could not resolve ${host}: ${code}`, 'dns', { cause: error });
  }
  if (addresses.length === 0) throw new OutboundFailed(`Could not resolve ${host}: no address`, 'dns');
  return addresses;
}

/** Throws OutboundRefused unless the address is public unicast, or of a class the operator allows. */
function checkAddress(address: string, host: string, allow: NonNullable<DeliveryOptions['allow']>): void {
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it stands for.
  const ip = ipaddr.process(address);
  let range: string = ip.range();
  if (range === 'unicast' && ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) range = 'reserved';
  if (range === 'unicast') return;
  if (range === 'loopback' && allow.loopback) return;
  if (
    (range === 'private' || range === 'uniqueLocal' || range === 'carrierGradeNat') &&
    allow.privateNetworks
  )
    return;
  const shown = ip.toString() === address ? address : `${address} (${ip.toString()})`;
  const via = host === address ? '' : ` (resolved from ${host})`;
  const className = CLASS_NAMES[range] ?? `special-purpose (${range})`;
  throw new OutboundRefused(`Refused: ${shown}${via} is a ${className} address`, 'address', address, range);
}

/** The socket's lookup: hands back the checked addresses, never asks DNS again. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = options.family ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const first = usable[0];
    if (!first)
      return callback(
        Object.assign(new Error('No checked address of that family'), { code: 'ENOTFOUND' }),
        '',
      );
    // Node asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily); all of them were checked.
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

function exchange(
  target: Target,
  addresses: LookupAddress[],
  options: DeliveryOptions,
  deadline: AbortSignal,
  timedOut: () => OutboundFailed,
): Promise<Omit<DeliveryAnswer, 'latencyMs'>> {
  const secure = target.url.protocol === 'https:';
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const body = options.body ?? '';
  return new Promise((resolvePromise, reject) => {
    // Which step was under way when an error came: it tells a connect error from a TLS error.
    let phase: 'connect' | 'tls' | 'response' = 'connect';
    const request = (secure ? https : http).request({
      protocol: target.url.protocol,
      hostname: target.host,
      port: target.url.port || undefined,
      path: `${target.url.pathname}${target.url.search}`,
      method: options.method ?? 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(addresses),
      // Without the caller's agent, a fresh connection closed after the answer: no pooled socket
      // from an earlier resolution.
      agent: options.agent ?? false,
    });
    const fail = (error: Error) => {
      reject(error);
      request.destroy();
    };
    deadline.addEventListener('abort', () => fail(timedOut()), { once: true });
    request.on('socket', (socket) => {
      // A pooled connection is already up (and its connect events are long past): what goes wrong
      // on it goes wrong in the exchange.
      if (!socket.connecting) {
        phase = 'response';
        return;
      }
      socket.once('connect', () => (phase = secure ? 'tls' : 'response'));
      socket.once('secureConnect', () => (phase = 'response'));
    });
    request.on('error', (error) => fail(describeFailure(error, phase, target)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (truncated: boolean) => {
        const excerpt = new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });
        const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
        resolvePromise({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bodyExcerpt: excerpt,
          truncated,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        });
        // A completely read answer leaves the connection to the caller's agent for the next call.
        if (truncated || !options.agent) request.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        const room = limit - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = limit;
          finish(true);
        } else {
          chunks.push(chunk);
          size += chunk.length;
        }
      });
      response.on('end', () => finish(false));
      response.on('error', (error) => fail(describeFailure(error, 'response', target)));
    });
    request.end(body);
  });
}

function describeFailure(
  error: Error,
  phase: 'connect' | 'tls' | 'response',
  target: Target,
): OutboundFailed {
  if (error instanceof OutboundFailed) return error;
  const detail = (error as NodeJS.ErrnoException).code ?? error.message;
  const where = `${target.host}${target.url.port ? `:${target.url.port}` : ''}`;
  const message = {
    connect: `Could not connect to ${where}: ${detail}`,
    tls: `TLS with ${where} failed: ${detail}`,
    response: `The connection to ${where} broke during the answer: ${detail}`,
  }[phase];
  return new OutboundFailed(message, phase, { cause: error });
}

/** The promise's value, unless the signal aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    signal.addEventListener('abort', () => reject(onAbort()), { once: true });
    promise.then(resolvePromise, reject);
  });
}
