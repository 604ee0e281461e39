import type { OperationExample } from './examples.ts';

/**
 * Examples written by hand, for operations the recording cannot call against the demo: their
 * answer is not JSON, or the call needs what only the world outside holds (a model provider, an
 * identity provider's signed token, an SMS provider's signature), or the demo has nothing in the
 * state the call needs (a parcel deposited in a locker, a waitlist offer). An answer `like` another
 * operation is that operation's recorded answer (the same output schema), with `patch` applied.
 * test/openapi-examples.test.ts checks them against the schemas like the recorded ones.
 */
export interface HandwrittenExample {
  why: string;
  request: OperationExample['request'];
  answer?: unknown;
  like?: string;
  patch?: (answer: Record<string, unknown>) => unknown;
}

const AT = '2026-11-02T09:30:00.000Z';

/** The answer with `field`'s object changed by `changes`. */
const withinField =
  (field: string, changes: Record<string, unknown>) =>
  (answer: Record<string, unknown>): unknown => ({
    ...answer,
    [field]: { ...(answer[field] as Record<string, unknown>), ...changes },
  });

export const HANDWRITTEN: Record<string, HandwrittenExample> = {
  get_proof_file: {
    why: 'answers the image itself (image/png, image/jpeg or image/webp), by a signed link of the tracking page',
    request: {
      path: { proof_id: '1' },
      query: { expires: '1793612400', signature: 'k3Jt0cJmQ4W1yX8bV2nR5sLq' },
    },
    answer: { result: true },
  },
  app_sign_in: {
    why: "needs an identity provider's signed ID token",
    request: {
      path: { appCode: 'courier', clientCode: 'demo', idp: 'google' },
      body: {
        id_token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMDk4In0.c2lnbmF0dXJl',
        device_id: 'device-1',
        device_platform: 'ios',
      },
    },
    answer: {
      result: true,
      access_token: 'tms_example-access-token',
      token_type: 'Bearer',
      expires_at: '2026-11-09 10:30:00',
      expires_timestamp: 1793698200,
      user: { id: 5, name: 'Cyrus Customer', email: 'customer@demo.test' },
      app_context: {
        app_code: 'courier',
        client_code: 'demo',
        client_name: 'Demo Deliveries',
        configuration_version: 1,
      },
    },
  },
  send_agent_turn: {
    why: 'asks a model provider, which the demo has none of',
    request: { path: { conversation_id: 1 }, body: { text: 'Which routes are late?' } },
    answer: {
      result: true,
      turn: {
        id: 1,
        text: 'Which routes are late?',
        answer: 'Route 3 reaches one stop 8 minutes after its window; the others are on time.',
        tool_calls: [
          {
            name: 'get_dispatch_suggestions',
            arguments: {},
            summary: '1 suggestion: {"kind":"route_late","route_id":3,"late_minutes":8}',
            refused: false,
          },
        ],
        proposals: [],
        model: 'gpt-4.1-mini',
        usage: { input_tokens: 1840, output_tokens: 64 },
        duration_ms: 2300,
        created_at: AT,
      },
    },
  },
  get_reservation_calendar: {
    why: 'answers the booking as an iCalendar file (text/calendar)',
    request: {
      path: { reference: 'EsGciEJH-WBRfuEm' },
      query: { signature: 'cQUJRVg9DOwV-qIKDPxJusXXfHmKRB9UUhr90m7_ASY' },
    },
    answer: { result: true },
  },
  get_sms_confirmation: {
    why: "needs the signature of the confirmation link the subscriber's SMS carries; answers an HTML page to people",
    request: { path: { subscriber_id: 5 }, query: { signature: 'Qm9vdF9zaWduYXR1cmVfZXhhbXBsZQ' } },
    answer: { result: true, status: 'pending' },
  },
  confirm_sms_subscription: {
    why: "needs the signature of the confirmation link the subscriber's SMS carries",
    request: {
      path: { subscriber_id: 5 },
      query: { signature: 'Qm9vdF9zaWduYXR1cmVfZXhhbXBsZQ' },
      body: 'confirm=1',
    },
    answer: { result: true, status: 'confirmed' },
  },
  receive_sms_twilio: {
    why: "needs Twilio's signature with the business's Twilio credentials (the demo sends through the log provider)",
    request: {
      path: { business_id: 1 },
      headers: { signature: 'mJ2Z7hDfV7mXq0W4u5o1GJ0sQ8Y=' },
      body: 'MessageSid=SM0123456789abcdef0123456789abcdef&From=%2B33612000001&To=%2B33700000000&Body=STOP',
    },
    answer: { result: true, duplicate: false, keyword: 'stop' },
  },
  receive_sms_generic: {
    why: "needs the signature of the business's generic SMS provider (the demo sends through the log provider)",
    request: {
      path: { business_id: 1 },
      headers: { signature: 'sha256=5d41402abc4b2a76b9719d911017c592' },
      body: JSON.stringify({ id: 'msg-0001', from: '+33612000001', to: '+33700000000', text: 'HELP' }),
    },
    answer: { result: true, duplicate: false, keyword: 'help' },
  },
  receive_sms_status_twilio: {
    why: "needs Twilio's signature with the business's Twilio credentials",
    request: {
      path: { business_id: 1 },
      headers: { signature: 'mJ2Z7hDfV7mXq0W4u5o1GJ0sQ8Y=' },
      body: 'MessageSid=SM0123456789abcdef0123456789abcdef&MessageStatus=delivered',
    },
    answer: { result: true, updated: true },
  },
  receive_sms_status_generic: {
    why: "needs the signature of the business's generic SMS provider",
    request: {
      path: { business_id: 1 },
      headers: { signature: 'sha256=5d41402abc4b2a76b9719d911017c592' },
      body: JSON.stringify({ id: 'msg-0001', status: 'delivered' }),
    },
    answer: { result: true, updated: true },
  },
  redeem_sms_offer_code: {
    why: 'the demo keeps only digests of the offer codes it sent',
    request: { body: { code: 'M5R7HHX2' } },
    answer: {
      result: true,
      redemption: { campaign_id: 1, order_id: null, redeemed_at: AT, expires_at: '2026-11-30T22:59:59.000Z' },
    },
  },
  pause_sms_campaign: {
    why: "the demo's campaign is sent in full as soon as the service runs: none is left sending to pause",
    request: { path: { campaign_id: 1 } },
    like: 'start_sms_campaign',
    patch: withinField('campaign', { status: 'paused' }),
  },
  resume_sms_campaign: {
    why: 'no campaign of the demo is paused',
    request: { path: { campaign_id: 1 } },
    like: 'start_sms_campaign',
    patch: withinField('campaign', { status: 'sending' }),
  },
  collect_locker_parcel: {
    why: 'needs a parcel deposited in a locker, which takes the device and its door sensor',
    request: { path: { booking_id: 1 } },
    like: 'send_locker_device_command',
    patch: withinField('command', { action: 'open', booking_id: 1, compartment_id: 1 }),
  },
  get_locker_storage: {
    why: 'needs a storage booking with a parcel deposited, which takes the device and its door sensor',
    request: { path: { booking_id: 1 } },
    like: 'get_locker_booking',
    patch: (answer) => ({ ...answer, history: [] }),
  },
  accept_reservation_offer: {
    why: 'needs a waitlist offer, made when a booked place frees up',
    request: { path: { reference: 'ikqMwun_WWs04vci' }, body: { signature: 'hJ3kL0pQ9rS8tU7vW6xY5zA4' } },
    like: 'confirm_reservation',
  },
  assign_forwarding_suite: {
    why: 'the demo has one customer, and the seed gave it its suite',
    request: { body: { customer_id: 5, warehouse_id: 1 } },
    like: 'list_forwarding_suites',
    patch: (answer) => ({ result: true, suite: (answer.suites as unknown[])[0] }),
  },
  scan_pickup_package: {
    why: "needs a started route with a pickup stop: the demo's routes deliver only",
    request: { path: { route_id: 3, tracking_number: 'TMSGV5B207DQT' } },
    like: 'get_my_routes',
    patch: (answer) => {
      const [route] = answer.routes as Array<{ id: number; stops: Array<Record<string, unknown>> }>;
      const stop: Record<string, unknown> = { ...route!.stops[0]!, leg: 'pickup' };
      const [parcel] = stop.packages as Array<{ id: number; tracking_number: string }>;
      return {
        result: true,
        route_id: route!.id,
        package: { id: parcel!.id, tracking_number: parcel!.tracking_number },
        stop,
      };
    },
  },
  release_board_route: {
    why: "the demo's held board route is started by the examples' set-up, and a started route cannot go back on the board",
    request: { path: { fleet_id: 1, route_id: 4 } },
    like: 'get_fleet_board_route',
  },
  withdraw_board_route: {
    why: "the withdrawal cut-off of the demo's board routes has passed at the demo's hour",
    request: { path: { route_id: 4 } },
    like: 'get_board_route',
  },
  claim_board_route: {
    why: "the demo's board routes of today left in the morning, and the crew has no shift today (today's had begun when they signed up), so a driver's claim is refused (BOARD_WINDOW_PASSED, BOARD_OFF_SHIFT)",
    request: { path: { route_id: 5 } },
    like: 'get_board_route',
  },
  join_board_standby: {
    why: "as for claim_board_route: the demo's board routes of today have left, and the crew has no shift today",
    request: { path: { route_id: 4 } },
    like: 'get_board_route',
    patch: withinField('route', { standby: { length: 1, my_position: 1 } }),
  },
  propose_dispatch_suggestion: {
    why: "the demo's day has no suggestion a write fixes at the demo's hour",
    request: { path: { suggestion_id: 'reassign-4c1f9a2b7d3e8f60' } },
    like: 'propose_write',
  },
  remove_route_stop: {
    why: "every stop of the demo's editable routes is received at the warehouse, and such a stop cannot go back to unplanned",
    request: { path: { route_id: 3, order_id: 95 } },
    like: 'move_route_stop',
  },
};
