import { z } from 'zod';

/**
 * The device protocol (docs/lockers.md): what a locker, kiosk or smart drop says over MQTT and
 * what it is told. Pure: topics, payloads and credentials' shape, shared by the service, the
 * device simulator and the benchmark.
 */

/** A device credential: `tmsdev_<device id>_<secret>`; the broker tells it from a user token by its prefix. */
export const DEVICE_CREDENTIAL_PREFIX = 'tmsdev_';
const CREDENTIAL = /^tmsdev_([1-9]\d{0,15})_([A-Za-z0-9_-]{43})$/;

/** The device a credential names, or null when it is not a device credential at all. */
export function credentialDevice(password: string): number | null {
  const match = CREDENTIAL.exec(password);
  return match ? Number(match[1]) : null;
}

/** The two topics of one device, under the service's MQTT topic prefix. */
export class DeviceTopics {
  constructor(readonly prefix: string) {}

  /** Device to service: heartbeats, acknowledgements, door events. */
  up(deviceId: number): string {
    return `${this.prefix}/devices/${deviceId}/up`;
  }

  /** Service to device: commands. */
  commands(deviceId: number): string {
    return `${this.prefix}/devices/${deviceId}/commands`;
  }

  /** Every device's up topic, as a shared subscription: each message reaches one instance. */
  sharedUp(): string {
    return `$share/tms/${this.prefix}/devices/+/up`;
  }

  /** The device and direction a topic belongs to, or null for any other topic. */
  parse(topic: string): { deviceId: number; direction: 'up' | 'commands' } | null {
    if (!topic.startsWith(`${this.prefix}/devices/`)) return null;
    const match = /^([1-9]\d{0,15})\/(up|commands)$/.exec(topic.slice(this.prefix.length + 9));
    return match ? { deviceId: Number(match[1]), direction: match[2] as 'up' | 'commands' } : null;
  }
}

const compartmentNumber = z.int().min(1).max(999);

/** What a device publishes on its up topic. */
export const upMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat'), firmware: z.string().max(64).optional() }),
  z.object({
    type: z.literal('ack'),
    command_id: z.uuid(),
    ok: z.boolean(),
    error: z.string().max(200).optional(),
  }),
  z.object({
    type: z.literal('door'),
    compartment: compartmentNumber,
    state: z.enum(['opened', 'closed']),
    occupied: z.boolean().optional(),
  }),
  // A kiosk sold a storage period: it took the payment and printed the reference and code.
  z.object({
    type: z.literal('storage_started'),
    compartment: compartmentNumber,
    reference: z.string().regex(/^[A-Za-z0-9_-]{12,32}$/),
    pickup_code: z.string().regex(/^\d{6,12}$/),
    paid_until: z.iso.datetime({ offset: true }),
  }),
]);
export type UpMessage = z.infer<typeof upMessageSchema>;

export const COMMAND_ACTIONS = ['open', 'reboot'] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

/**
 * A command as the device receives it. The device carries out each id at most once and never
 * after `expires_at`; it answers every command it receives with an `ack` (ok false when it did not
 * carry it out).
 */
export interface CommandMessage {
  type: 'command';
  id: string;
  action: CommandAction;
  /** For `open`. */
  compartment?: number;
  expires_at: string;
}

/** A device's up message, parsed; null for anything the protocol does not know (it is dropped). */
export function parseUp(payload: Buffer | string): UpMessage | null {
  if (payload.length > 4_096) return null;
  try {
    const parsed = upMessageSchema.safeParse(JSON.parse(payload.toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
