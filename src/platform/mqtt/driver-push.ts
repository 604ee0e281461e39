import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import { enqueueMany, type OutboxHandler } from '../outbox/outbox.ts';
import type { MqttPublisher } from './broker.ts';

/** The outbox topic of pushes to one driver's own MQTT topic (a route promoted to them, an instant offer, ...). */
export const DRIVER_PUSH_TOPIC = 'driver.push';

/** One push to a driver: `type` says what it is; the rest is its thin body. */
export interface DriverPush {
  businessId: number;
  driverUserId: number;
  body: { type: string } & Record<string, unknown>;
}

interface DriverPushPayload {
  business_id: number;
  driver_user_id: number;
  body: DriverPush['body'];
}

/** Writes the pushes in the caller's transaction: they leave exactly when the change that caused them commits. */
export async function enqueueDriverPushes(
  db: Queryable,
  clock: Clock,
  pushes: readonly DriverPush[],
): Promise<void> {
  await enqueueMany(
    db,
    clock,
    pushes.map((push) => {
      const messageId = `push_${randomUUID()}`;
      const payload: DriverPushPayload = {
        business_id: push.businessId,
        driver_user_id: push.driverUserId,
        body: { ...push.body, id: messageId },
      };
      return { topic: DRIVER_PUSH_TOPIC, businessId: push.businessId, messageId, payload };
    }),
  );
}

/** The outbox handler: publishes each push on its driver's topic, or tries later while the broker cannot take it. */
export function driverPushHandler(
  publisher: MqttPublisher,
  topicOf: (businessId: number, driverUserId: number) => string,
  clock: Clock,
  retryMs: number,
): OutboxHandler {
  return async (message) => {
    const push = message.payload as DriverPushPayload;
    try {
      await publisher.publish(topicOf(push.business_id, push.driver_user_id), JSON.stringify(push.body));
      return { done: true };
    } catch (error) {
      return {
        retryAt: new Date(clock.now().getTime() + retryMs),
        error: error instanceof Error ? error.message : String(error),
      };
    }
  };
}
