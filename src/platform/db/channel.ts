import type pg from 'pg';

/** How long to wait before listening again after the listening connection was lost. */
const RECONNECT_MS = 1_000;

/**
 * Hears a PostgreSQL notification channel on a connection of its own from the pool, listening
 * again after the connection is lost (the cache invalidation and the live boards use it). A NOTIFY sent
 * in a transaction reaches it only once that transaction commits. `onListening` runs each time
 * listening (re)starts: notifications sent while it was not listening are missed, and whoever
 * relies on them reads afresh then.
 */
export class ChannelListener {
  private pool: pg.Pool | undefined;
  private listener: pg.PoolClient | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly channel: string,
    private readonly onMessage: (payload: string) => void,
    private readonly onListening: () => void = () => {},
  ) {}

  get listening(): boolean {
    return this.listener !== undefined;
  }

  async start(pool: pg.Pool): Promise<void> {
    this.pool = pool;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.pool = undefined;
    clearTimeout(this.retry);
    const listener = this.listener;
    this.listener = undefined;
    if (!listener) return;
    await listener.query(`UNLISTEN ${this.channel}`).catch(() => {});
    // Closed rather than pooled: the listeners attached to it stay with it.
    listener.release(true);
  }

  /** The connection being made, so that two starts at once make one. */
  private connecting: Promise<void> | undefined;

  private listen(): Promise<void> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const pool = this.pool;
    if (!pool || this.listener) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const connection = client;
      connection.on('notification', (message) => {
        if (message.channel === this.channel && message.payload) this.onMessage(message.payload);
      });
      connection.on('error', () => this.lost(connection));
      connection.on('end', () => this.lost(connection));
      await connection.query(`LISTEN ${this.channel}`);
      if (this.pool !== pool) {
        connection.release(true);
        return;
      }
      this.listener = connection;
      this.onListening();
    } catch {
      client?.release(true);
      this.listenLater();
    }
  }

  private lost(connection: pg.PoolClient): void {
    if (this.listener !== connection) return;
    this.listener = undefined;
    connection.release(true);
    this.listenLater();
  }

  private listenLater(): void {
    if (!this.pool) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), RECONNECT_MS);
    this.retry.unref();
  }
}
