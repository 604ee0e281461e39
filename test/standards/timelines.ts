import { OTEP_VERSION, statusUri } from '../../src/modules/tracking/codebook.ts';
import { BASE_URL, PARCEL, singleEventTimelines } from '../../src/modules/tracking/projections/fixtures.ts';
import type { OtepTimeline } from '../../src/modules/tracking/timeline.ts';

/**
 * The timelines every standards test projects: the realistic parcel, one timeline per code of the
 * codebook (and an experimental one), the longer aliases of returned and rejected, the parcel
 * sent back after its failed attempt, and a piece with no event yet.
 */
export { BASE_URL };

export function returnedParcel(): OtepTimeline {
  const attempts = PARCEL.events.slice(0, 6);
  const failed = attempts.at(-1)!;
  return {
    ...PARCEL,
    subject: { tracking_number: 'TMS7K2M9Q4XZ2' },
    current_status: 'returned',
    delivered: false,
    events: [
      ...attempts,
      {
        ...failed,
        event_id: 'evt-0009',
        occurred_at: '2026-11-12T09:30:00-05:00',
        recorded_at: '2026-11-12T14:30:05Z',
        status_code: 'returned',
        status_uri: statusUri('returned'),
        phase: 'return',
        incident_reason: undefined,
        description: 'Unclaimed after seven days: sent back to the shop',
      },
    ],
  };
}

/** The longer names of `returned` and `rejected`, as a source may still send them. */
function aliasTimelines(): OtepTimeline[] {
  const [first] = singleEventTimelines();
  return ['return_to_sender', 'rejected_by_recipient'].map((alias) => ({
    ...first!,
    subject: { tracking_number: `TMS-${alias}` },
    current_status: alias,
    events: [{ ...first!.events[0]!, status_code: alias, status_uri: statusUri(alias), phase: 'return' }],
  }));
}

const pieceWithoutEvents: OtepTimeline = {
  otep_version: OTEP_VERSION,
  profile: 'parcel',
  subject: { piece_id: 'PC-1' },
  delivered: false,
  events: [],
};

export function standardsTimelines(): Array<{ name: string; timeline: OtepTimeline }> {
  return [
    { name: 'parcel', timeline: PARCEL },
    { name: 'returned parcel', timeline: returnedParcel() },
    ...singleEventTimelines().map((timeline) => ({ name: timeline.current_status!, timeline })),
    ...aliasTimelines().map((timeline) => ({ name: `alias ${timeline.current_status}`, timeline })),
    { name: 'piece without events', timeline: pieceWithoutEvents },
  ];
}
