import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { MqttPublisher } from '../../platform/mqtt/broker.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { CommandAction, CommandMessage, DeviceTopics } from './protocol.ts';
import * as repo from './repository.ts';

/** The outbox topic of a command on its way to its device. */
export const COMMAND_TOPIC = 'locker.command';

export interface CommandSettings {
  /** How long a device has to carry out and answer a command. */
  ttlMs: number;
  /** How soon a publish the broker could not take is tried again (while the command is still due). */
  retryMs: number;
}

interface CommandPayload {
  device_id: number;
  message: CommandMessage;
}

/**
 * Commands to devices. A command is written with the change that needs it and leaves through the
 * outbox; it is published only while it is pending and due, and the device carries out each id
 * once and never after `expires_at`: a redelivery, or a retry of the publish, cannot open a door
 * twice. An unanswered command fails once past its deadline (LockerBookings.failOverdueCommands).
 */
export class LockerCommands {
  constructor(
    private readonly clock: Clock,
    readonly topics: DeviceTopics,
    readonly settings: CommandSettings,
  ) {}

  async issue(
    db: Queryable,
    command: {
      businessId: number;
      deviceId: number;
      action: CommandAction;
      compartment?: { id: number; number: number };
      bookingId?: number;
    },
  ): Promise<repo.CommandRow> {
    const id = randomUUID();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.settings.ttlMs);
    const row = await repo.insertCommand(db, {
      id,
      business_id: command.businessId,
      device_id: command.deviceId,
      compartment_id: command.compartment?.id ?? null,
      booking_id: command.bookingId ?? null,
      action: command.action,
      status: 'pending',
      error: null,
      issued_at: now,
      expires_at: expiresAt,
      answered_at: null,
    });
    const message: CommandMessage = {
      type: 'command',
      id,
      action: command.action,
      ...(command.compartment ? { compartment: command.compartment.number } : {}),
      expires_at: expiresAt.toISOString(),
    };
    const payload: CommandPayload = { device_id: command.deviceId, message };
    await enqueue(db, this.clock, {
      topic: COMMAND_TOPIC,
      businessId: command.businessId,
      messageId: `cmd_${id}`,
      payload,
      // Someone is at the locker (or a device waits on it): not behind the business's other messages.
      urgent: true,
    });
    return row;
  }

  /** The outbox handler publishing commands to their devices. */
  publisher(db: Queryable, mqtt: MqttPublisher): OutboxHandler {
    return async (outgoing) => {
      const { device_id, message } = outgoing.payload as CommandPayload;
      const now = this.clock.now();
      const expiresAt = new Date(message.expires_at);
      if (expiresAt <= now) return { done: true };
      // On a first try the command is as its transaction wrote it: no device has seen it, so none
      // has answered it. A retry looks again, since the earlier try may have reached the device.
      if (outgoing.attempt > 1 && (await repo.commandById(db, message.id))?.status !== 'pending') {
        return { done: true };
      }
      try {
        await mqtt.publish(this.topics.commands(device_id), JSON.stringify(message));
        return { done: true };
      } catch (error) {
        const retryAt = new Date(now.getTime() + this.settings.retryMs);
        const reason = error instanceof Error ? error.message : String(error);
        // Past its deadline the command has failed: publishing it later would be a late opening.
        return retryAt < expiresAt ? { retryAt, error: reason } : { done: true, error: reason };
      }
    };
  }
}
