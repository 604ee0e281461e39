import { answer, type Schemas } from '../shared/api.ts';
import { html, useEffect, useState } from '../shared/ui.ts';
import type { SectionProps } from './order-section.ts';

type Entry = Awaited<ReturnType<typeof readTimeline>>['entries'][number];
type Proof = NonNullable<Schemas['TrackingEvent']['pod']>;

function readTimeline(props: SectionProps) {
  return answer(
    props.context.api.GET('/v1/client/orders/{order_id}/audit-timeline', {
      params: { path: { order_id: props.order.id } },
    }),
  );
}

/** Read again whenever the order changed: its updated_at moves with every change. */
function useRead<T>(props: SectionProps, read: () => Promise<T>): T | null {
  const [found, setFound] = useState<T | null>(null);
  useEffect(() => {
    let current = true;
    read()
      .then((value) => current && setFound(value))
      .catch(() => current && setFound(null));
    return () => {
      current = false;
    };
  }, [props.order.id, props.order.updated_at, props.order.status]);
  return found;
}

/** The order's audit, newest first: its changes (by whom, through which door) and its parcels' events. */
export function OrderHistory(props: SectionProps) {
  const { t, data } = props.context;
  const timeline = useRead(props, () => readTimeline(props));
  const entries = [...(timeline?.entries ?? [])].reverse();
  const when = (iso: string) =>
    new Date(iso).toLocaleString(data.lang, { dateStyle: 'short', timeStyle: 'short' });
  return html`<details id="order-history">
    <summary>${t('history', { count: entries.length })}</summary>
    ${
      !timeline
        ? html`<p class="meta">${t('loading')}</p>`
        : html`<ol class="list">
            ${entries.map(
              (entry) => html`<li>
                <span class="meta">${when(entry.at)}</span> <code>${entry.action}</code>
                ${statusChange(entry)}
                <span class="meta"> · ${entry.actor?.name ?? entry.source}</span>
              </li>`,
            )}
          </ol>`
    }
  </details>`;
}

/** A status change names its statuses, the API's own codes. */
function statusChange(entry: Entry): string {
  const status = entry.details.status as { from?: string | null; to?: string } | undefined;
  return status?.to ? ` ${status.from ?? '—'} → ${status.to}` : '';
}

/**
 * Who received the parcel, the signature and the photos, from the tracking events of the order's
 * first parcel (get_tracking_detail): shown only when an event carries a proof.
 */
export function ProofOfDelivery(props: SectionProps) {
  const { t, data, api } = props.context;
  const tracking = props.order.packages[0]?.tracking_number;
  const proof = useRead(props, async (): Promise<Proof | null> => {
    if (!tracking) return null;
    const found = await answer(
      api.GET('/v1/client/trackings/{tracking_number}', {
        params: { path: { tracking_number: tracking }, query: { per_page: 100 } },
      }),
    );
    const events = found.timeline.events.filter((event) => event.pod);
    return events.at(-1)?.pod ?? null;
  });
  if (!proof) return '';
  const file = (id: number) => `${data.base}/api/v1/proofs/${id}`;
  const photos = [...(proof.photo_proof_ids ?? []).map(file), ...(proof.photo_urls ?? [])];
  const signature =
    proof.signature_proof_id !== undefined ? file(proof.signature_proof_id) : proof.signature_url;
  return html`<section id="order-proof" aria-labelledby="proof-heading">
    <h4 id="proof-heading">${t('proofOfDelivery')}</h4>
    ${proof.recipient ? html`<p>${t('receivedBy', { name: proof.recipient })}</p>` : ''}
    ${proof.note ? html`<p class="meta">${proof.note}</p>` : ''}
    <p class="actions">
      ${signature ? html`<a href=${signature} target="_blank" rel="noopener">${t('signature')}</a>` : ''}
      ${photos.map(
        (url, at) =>
          html`<a href=${url} target="_blank" rel="noopener">${t('photo', { number: at + 1 })}</a>`,
      )}
    </p>
  </section>`;
}
