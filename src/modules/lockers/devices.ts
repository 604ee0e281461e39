import type { DeviceRow } from './repository.ts';
import { isOnline } from './views.ts';

/**
 * When a device counts as online: heard (a heartbeat, an answer, a door) within `offlineAfterMs`
 * and not disconnected since. Three missed heartbeats of 30 s by default; an offline device's
 * compartments are not offered, and no command is sent to it.
 */
export class Devices {
  constructor(readonly offlineAfterMs: number) {}

  online(device: DeviceRow, now: Date): boolean {
    return isOnline(device, now, this.offlineAfterMs);
  }

  /** Devices heard since this moment may be online. */
  onlineSince(now: Date): Date {
    return new Date(now.getTime() - this.offlineAfterMs);
  }
}
