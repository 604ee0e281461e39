import { PNG } from 'pngjs';

/** A real PNG, as pngjs writes it: what a phone sends for a signature or a photo. */
export function pngImage(width = 4, height = 3): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x40);
  return PNG.sync.write(image);
}

/** Uploads a proof file for an order, as the driver app does before completing the stop; answers its id. */
export async function uploadProof(
  baseUrl: string,
  token: string,
  orderId: number,
  kind: 'signature' | 'photo',
  bytes: Buffer = pngImage(),
): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/driver/orders/${orderId}/proofs?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
    body: bytes,
  });
  const body = (await response.json()) as { proof?: { id: number } };
  if (response.status !== 200 || !body.proof) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.proof.id;
}
