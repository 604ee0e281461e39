/**
 * A listen-only MQTT 3.1.1 client over WebSocket, for the apps' live pushes (docs/chat.md): the
 * embedded broker takes no client PUBLISH anyway, and mqtt.js would be most of the console's
 * script budget for the few packets needed here (CONNECT, SUBSCRIBE, UNSUBSCRIBE, PUBLISH at QoS
 * 0 or 1, PINGREQ). It sends no credentials: the connection is the page session's, by its cookie.
 */

type Listener = (payload: unknown) => void;

const KEEP_ALIVE_SECONDS = 30;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000];

export class LiveTopics {
  private socket: WebSocket | null = null;
  private connected = false;
  private everConnected = false;
  private buffer = new Uint8Array(0);
  private packetId = 0;
  private attempts = 0;
  private ping: ReturnType<typeof setInterval> | undefined;
  private readonly topics = new Map<string, Set<Listener>>();
  private readonly reconnected = new Set<() => void>();
  /** Told when the broker granted a topic's subscription (the page is then live on it). */
  private readonly grants = new Map<string, () => void>();
  /** The topics of each SUBSCRIBE awaiting its SUBACK, by packet id. */
  private readonly asked = new Map<number, string[]>();

  /** `url`: the broker's WebSocket address (ws: or wss:, absolute). */
  constructor(private readonly url: string) {}

  /**
   * Hears every message of a topic (its JSON payload) until the answered function is called. The
   * connection opens at the first listener and is kept, reconnecting, while any topic is heard.
   */
  listen(topic: string, listener: Listener, granted?: () => void): () => void {
    if (granted) this.grants.set(topic, granted);
    let listeners = this.topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
      if (this.connected) this.send(this.subscribe([topic]));
    }
    listeners.add(listener);
    if (!this.socket) this.open();
    return () => {
      const held = this.topics.get(topic);
      held?.delete(listener);
      if (held?.size === 0) {
        this.topics.delete(topic);
        this.grants.delete(topic);
        if (this.connected) this.send(this.unsubscribe(topic));
      }
    };
  }

  /** Told after each reconnection: what was published meanwhile is not kept, so read it again. */
  onReconnect(listener: () => void): () => void {
    this.reconnected.add(listener);
    return () => this.reconnected.delete(listener);
  }

  private open(): void {
    const socket = new WebSocket(this.url, 'mqtt');
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => this.send(connect(`tms-web-${Math.random().toString(36).slice(2, 12)}`));
    socket.onmessage = (event) => this.receive(new Uint8Array(event.data as ArrayBuffer));
    socket.onclose = () => {
      const wasConnected = this.connected;
      this.connected = false;
      this.socket = null;
      this.buffer = new Uint8Array(0);
      this.asked.clear();
      clearInterval(this.ping);
      if (wasConnected) this.attempts = 0;
      if (this.topics.size === 0) return;
      const wait = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)]!;
      setTimeout(() => {
        if (!this.socket && this.topics.size > 0) this.open();
      }, wait);
    };
  }

  private send(packet: Uint8Array<ArrayBuffer>): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(packet);
  }

  /** Takes the socket's bytes: a frame may hold several packets, or part of one. */
  private receive(bytes: Uint8Array): void {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer);
    joined.set(bytes, this.buffer.length);
    let offset = 0;
    for (;;) {
      const packet = readPacket(joined, offset);
      if (!packet) break;
      this.handle(packet.type, packet.flags, joined.subarray(packet.body, packet.end));
      offset = packet.end;
    }
    this.buffer = joined.slice(offset);
  }

  private handle(type: number, flags: number, body: Uint8Array): void {
    if (type === 2) {
      // CONNACK: return code 0 is accepted; anything else (no session) closes and tries later.
      if (body[1] !== 0) {
        this.socket?.close();
        return;
      }
      const again = this.everConnected;
      this.everConnected = true;
      this.connected = true;
      this.attempts = 0;
      this.ping = setInterval(() => this.send(new Uint8Array([0xc0, 0])), KEEP_ALIVE_SECONDS * 500);
      if (this.topics.size > 0) this.send(this.subscribe([...this.topics.keys()]));
      if (again) for (const listener of this.reconnected) listener();
      return;
    }
    if (type === 9) {
      // SUBACK: a return code per topic asked, 0x80 refused (not the person's to hear).
      const id = (body[0]! << 8) | body[1]!;
      const topics = this.asked.get(id) ?? [];
      this.asked.delete(id);
      topics.forEach((topic, index) => {
        if (body[2 + index] !== 0x80) this.grants.get(topic)?.();
      });
      return;
    }
    if (type !== 3) return;
    const qos = (flags >> 1) & 3;
    const topicLength = (body[0]! << 8) | body[1]!;
    const topic = new TextDecoder().decode(body.subarray(2, 2 + topicLength));
    let start = 2 + topicLength;
    if (qos > 0) {
      // PUBACK, so the broker stops sending it again.
      this.send(new Uint8Array([0x40, 2, body[start]!, body[start + 1]!]));
      start += 2;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder().decode(body.subarray(start)));
    } catch {
      return;
    }
    for (const listener of this.topics.get(topic) ?? []) listener(payload);
  }

  private nextId(): number {
    this.packetId = (this.packetId % 0xffff) + 1;
    return this.packetId;
  }

  private subscribe(topics: string[]): Uint8Array<ArrayBuffer> {
    const id = this.nextId();
    this.asked.set(id, topics);
    return packet(0x82, [u16(id), ...topics.flatMap((topic) => [text(topic), new Uint8Array([1])])]);
  }

  private unsubscribe(topic: string): Uint8Array<ArrayBuffer> {
    return packet(0xa2, [u16(this.nextId()), text(topic)]);
  }
}

/** CONNECT of MQTT 3.1.1 (level 4, the embedded broker's), clean session, no credentials. */
function connect(clientId: string): Uint8Array<ArrayBuffer> {
  return packet(0x10, [text('MQTT'), new Uint8Array([4, 0x02]), u16(KEEP_ALIVE_SECONDS), text(clientId)]);
}

function packet(header: number, parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const size: number[] = [];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    size.push(byte);
  } while (rest > 0);
  const out = new Uint8Array(1 + size.length + length);
  out[0] = header;
  out.set(size, 1);
  let at = 1 + size.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u16(value: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array([value >> 8, value & 0xff]);
}

function text(value: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(value);
  const out = new Uint8Array(2 + bytes.length);
  out.set(u16(bytes.length));
  out.set(bytes, 2);
  return out;
}

/** The packet at `offset`, or null while it has not all arrived. */
function readPacket(
  bytes: Uint8Array,
  offset: number,
): { type: number; flags: number; body: number; end: number } | null {
  if (offset >= bytes.length) return null;
  let length = 0;
  let multiplier = 1;
  let at = offset + 1;
  for (;;) {
    if (at >= bytes.length) return null;
    const byte = bytes[at++]!;
    length += (byte & 0x7f) * multiplier;
    multiplier *= 128;
    if ((byte & 0x80) === 0) break;
  }
  if (at + length > bytes.length) return null;
  const header = bytes[offset]!;
  return { type: header >> 4, flags: header & 0x0f, body: at, end: at + length };
}

/** The page's own WebSocket address of a path (wss: on an https: page). */
export function socketAddress(path: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}
