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
