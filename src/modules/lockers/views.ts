import type { BookingRow, CommandRow, CompartmentRow, DeviceRow, LedgerRow, SiteRow } from './repository.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** Online: heard within `offlineAfterMs`, and not disconnected since it was last heard. */
export function isOnline(device: DeviceRow, now: Date, offlineAfterMs: number): boolean {
  if (!device.last_seen_at) return false;
  if (device.disconnected_at && device.disconnected_at >= device.last_seen_at) return false;
  return now.getTime() - device.last_seen_at.getTime() <= offlineAfterMs;
}

export function compartmentView(row: CompartmentRow) {
  return {
    id: row.id,
    device_id: row.device_id,
    number: row.number,
    size_class: row.size_class,
    inner: { length_mm: row.length_mm, width_mm: row.width_mm, height_mm: row.height_mm },
    state: row.state,
  };
}

export function deviceView(row: DeviceRow, compartments: CompartmentRow[], online: boolean) {
  return {
    id: row.id,
    site_id: row.site_id,
    kind: row.kind,
    name: row.name,
    online,
    last_seen_at: iso(row.last_seen_at),
    firmware: row.firmware,
    compartments: compartments.map(compartmentView),
  };
}

export function siteView(row: SiteRow, devices: ReturnType<typeof deviceView>[]) {
  return {
    id: row.id,
    operator_business_id: row.business_id,
    name: row.name,
    address: row.address as { line1: string },
    opening_hours: row.opening_hours,
    hold_hours: row.hold_hours,
    devices,
  };
}

export function bookingView(
  row: BookingRow,
  compartment: Pick<CompartmentRow, 'id' | 'number' | 'size_class'>,
) {
  return {
    id: row.id,
    reference: row.reference,
    business_id: row.business_id,
    site_id: row.site_id,
    device_id: row.device_id,
    compartment: { id: compartment.id, number: compartment.number, size_class: compartment.size_class },
    purpose: row.purpose,
    state: row.state,
    opening: row.opening,
    order_id: row.order_id,
    relay_id: row.relay_id,
    hop: row.hop,
    recipient_user_id: row.recipient_user_id,
    recipient_name: row.recipient_name,
    locked: row.locked_at !== null,
    pickup_expires_at: iso(row.pickup_expires_at),
    paid_until: iso(row.paid_until),
    created_at: row.created_at.toISOString(),
    deposited_at: iso(row.deposited_at),
    finished_at: iso(row.finished_at),
  };
}

export function commandView(row: CommandRow) {
  return {
    id: row.id,
    device_id: row.device_id,
    compartment_id: row.compartment_id,
    booking_id: row.booking_id,
    action: row.action,
    status: row.status,
    error: row.error,
    issued_at: row.issued_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    answered_at: iso(row.answered_at),
  };
}

export function ledgerView(row: LedgerRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    actor: { kind: row.actor_kind, user_id: row.actor_user_id },
    site_id: row.site_id,
    device_id: row.device_id,
    compartment_id: row.compartment_id,
    booking_id: row.booking_id,
    order_id: row.order_id,
    relay_id: row.relay_id,
    command_id: row.command_id,
    tenant_business_id: row.tenant_business_id,
    code_ref: row.code_ref,
    details: (row.details ?? {}) as Record<string, unknown>,
  };
}
