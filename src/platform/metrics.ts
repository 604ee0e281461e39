import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Outcome } from './catalog/executor.ts';
import type { ReadServer } from './catalog/reads.ts';
import type { ReplicaState } from './db/replica.ts';

/** Prometheus metrics of one service instance, served at /metrics. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'tms_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly operations = new Counter({
    name: 'tms_operations_total',
    help: 'Operation runs by name and outcome (ok, rejected: a 4xx, failed: a 5xx)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly operationSeconds = new Histogram({
    name: 'tms_operation_duration_seconds',
    help: 'Time spent running operations, from authentication to output',
    labelNames: ['operation'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  private readonly replicaReads = new Counter({
    name: 'tms_read_replica_reads_total',
    help: 'Calls of operations allowed on the read replica, by operation and the server they were given (replica, primary)',
    labelNames: ['operation', 'server'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tms_' });
  }

  // prom-client hashes a label set on every observation; each set's child is looked up by a key instead.
  private readonly children = new Map<string, { observe(seconds: number): void } | { inc(): void }>();

  private child<T extends object>(key: string, make: () => T): T {
    let child = this.children.get(key) as T | undefined;
    if (!child) {
      child = make();
      this.children.set(key, child as never);
    }
    return child;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.child(`request ${method} ${status} ${route}`, () =>
      this.requests.labels({ method, route, status: String(status) }),
    ).observe(seconds);
  }

  observeReplicaRead = (operation: string, server: ReadServer): void => {
    this.child(`read ${server} ${operation}`, () => this.replicaReads.labels({ operation, server })).inc();
  };

  /** The read replica's state and lag, as its last check found them, read at each scrape. */
  watchReplica(replica: { state: ReplicaState; lagMs: number | null }): void {
    new Gauge({
      name: 'tms_read_replica_up',
      help: '1 while reads may go to the read replica (reachable, a standby, lag within DATABASE_READ_MAX_LAG_MS), else 0',
      registers: [this.registry],
      collect() {
        this.set(replica.state === 'ok' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'tms_read_replica_lag_seconds',
      help: "The read replica's replay lag at its last check; NaN while unknown (down, not checked yet)",
      registers: [this.registry],
      collect() {
        this.set(replica.lagMs === null ? Number.NaN : replica.lagMs / 1000);
      },
    });
  }

  observeOperation = (operation: string, outcome: Outcome, seconds: number): void => {
    this.child(`run ${outcome} ${operation}`, () => this.operations.labels({ operation, outcome })).inc();
    this.child(`time ${operation}`, () => this.operationSeconds.labels({ operation })).observe(seconds);
  };
}
