import type { FastifyInstance, FastifyReply } from 'fastify';

/** One message of a live answer: a named event and its JSON data, with an id the client may resume from. */
export interface StreamEvent {
  event: string;
  data: unknown;
  id?: string;
}

/** Where a live answer's messages go: a door writes them out, and closes when told to end. */
export interface EventSink {
  send(event: StreamEvent): void;
  end(): void;
}

/**
 * A live answer (Representation body for `text/event-stream`): the module pushes messages to the
 * sink a door attaches, until the door detaches (the client left) or the module ends it. What the
 * messages say is the module's; the door only writes them (server-sent events) and keeps the
 * connection open.
 */
export class EventStream {
  constructor(private readonly attachSink: (sink: EventSink) => () => void) {}

  /** Attaches the sink; answers the function that detaches it. */
  attach(sink: EventSink): () => void {
    return this.attachSink(sink);
  }
}

export const EVENT_STREAM = 'text/event-stream';

/** A message as server-sent events frame it: one `data:` line of JSON. */
export function eventFrame(event: StreamEvent): string {
  return `${event.id === undefined ? '' : `id: ${event.id}\n`}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** A comment line this often keeps an idle live answer open through proxies that drop quiet connections. */
const HEARTBEAT_MS = 15_000;
/** What a live answer may hold unsent for a slow client before it is closed. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * The live answers one server writes (any door's), ended when the server closes: it would wait on
 * them for ever otherwise.
 */
export class LiveAnswers {
  private readonly open = new Set<() => void>();

  constructor(app: FastifyInstance) {
    app.addHook('preClose', async () => {
      for (const end of [...this.open]) end();
    });
  }

  /**
   * Writes a live answer as server-sent events: each message a frame, a comment line as heartbeat,
   * until the client leaves or the module or the server ends it. What the messages say is the module's.
   */
  write(reply: FastifyReply, stream: EventStream): void {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string | number | string[]>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies that buffer answers (nginx) pass this one through as it comes.
      'x-accel-buffering': 'no',
    });
    let ended = false;
    let detach: (() => void) | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      this.open.delete(end);
      detach?.();
      raw.end();
    };
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    this.open.add(end);
    // The response closes when the client goes away (a request's own close comes once its body is read).
    raw.on('close', end);
    const sink: EventSink = {
      send: (event) => {
        if (ended) return;
        // A client that reads slower than the messages come gets closed rather than held in memory;
        // it reconnects to a fresh start.
        if (raw.writableLength > MAX_BUFFERED_BYTES) end();
        else raw.write(eventFrame(event));
      },
      end,
    };
    detach = stream.attach(sink);
    // Ended while attaching; or the client was gone before it could be told, and nothing else will end it.
    if (ended) detach();
    else if (raw.destroyed) end();
  }
}
