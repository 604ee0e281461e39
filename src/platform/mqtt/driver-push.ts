import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import { enqueueMany, type OutboxHandler } from '../outbox/outbox.ts';
import type { MqttPublisher } from './broker.ts';

/** The outbox topic of pushes to one driver's own MQTT topic (a route promoted to them, an instant offer, ...). */
export const DRIVER_PUSH_TOPIC = 'driver.push';
/** The outbox topic of pushes to one person's own MQTT topic, whatever their kind (a job's progress, ...). */
export const USER_PUSH_TOPIC = 'user.push';

/** One push to a driver: `type` says what it is; the rest is its thin body. */
export interface DriverPush {
  businessId: number;
  driverUserId: number;
  body: { type: string } & Record<string, unknown>;
}

/** One push to a person of a business. */
export interface UserPush {
  businessId: number;
  userId: number;
  body: { type: string } & Record<string, unknown>;
}

interface PushPayload {
  business_id: number;
  user_id?: number;
  /** The person of a driver push (rows written before pushes went to any person name them so). */
  driver_user_id?: number;
  body: DriverPush['body'];
}

/** Writes the pushes in the caller's transaction: they leave exactly when the change that caused them commits. */
export function enqueueDriverPushes(
  db: Queryable,
  clock: Clock,
  pushes: readonly DriverPush[],
): Promise<void> {
  return enqueuePushes(
    db,
    clock,
    DRIVER_PUSH_TOPIC,
    pushes.map((push) => ({ businessId: push.businessId, userId: push.driverUserId, body: push.body })),
  );
}

/** As enqueueDriverPushes, to people's own topics. */
export function enqueueUserPushes(db: Queryable, clock: Clock, pushes: readonly UserPush[]): Promise<void> {
  return enqueuePushes(db, clock, USER_PUSH_TOPIC, pushes);
}

async function enqueuePushes(
  db: Queryable,
  clock: Clock,
  topic: string,
  pushes: readonly UserPush[],
): Promise<void> {
  await enqueueMany(
    db,
    clock,
    pushes.map((push) => {
      const messageId = `push_${randomUUID()}`;
      const payload: PushPayload = {
        business_id: push.businessId,
        user_id: push.userId,
        body: { ...push.body, id: messageId },
      };
      return { topic, businessId: push.businessId, messageId, payload };
    }),
  );
}

/**
 * The outbox handler of DRIVER_PUSH_TOPIC or USER_PUSH_TOPIC: publishes each push on its person's
 * topic, or tries later while the broker cannot take it.
 */
export function personalPushHandler(
  publisher: MqttPublisher,
  topicOf: (businessId: number, userId: number) => string,
  clock: Clock,
  retryMs: number,
): OutboxHandler {
  return async (message) => {
    const push = message.payload as PushPayload;
    try {
      const userId = (push.user_id ?? push.driver_user_id)!;
      await publisher.publish(topicOf(push.business_id, userId), JSON.stringify(push.body));
      return { done: true };
    } catch (error) {
      return {
        retryAt: new Date(clock.now().getTime() + retryMs),
        error: error instanceof Error ? error.message : String(error),
      };
    }
  };
}
