import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/**
 * A load plan as a printable loading sheet (PDF, A4): the whole load and each stop's boxes to move
 * on the first page, then the load as it is built, in four to six numbered pictures of the steps
 * (`step` 1 goes in first), two a page, for the loader to follow on paper.
 */
export interface SheetPlan {
  title: string;
  placements: ReadonlyArray<{ step: number; stop: number }>;
  stops: ReadonlyArray<{ stop: number; boxes: number; boxes_to_move: number }>;
  /** When the plan was planned: the PDF's date, so the same plan prints the same bytes. */
  plannedAt: Date;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const INNER = A4.width - 2 * MARGIN;

/** Where the loading is cut into pictures: the last step of each, four to six of them. */
export function stepBreaks(steps: number): number[] {
  if (steps === 0) return [];
  const pictures = steps < 4 ? steps : steps <= 60 ? 4 : 6;
  return Array.from({ length: pictures }, (_, k) => Math.round(((k + 1) * steps) / pictures));
}

/** An SVG picture as a PNG pdfkit embeds (opaque: embedded at once, in order). */
function png(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 110 }).flatten({ background: '#ffffff' }).png().toBuffer();
}

/**
 * The sheet; `picture(upTo)` draws the load with the boxes of steps 1 to `upTo` (all of them
 * with Infinity).
 */
export async function loadingSheetPdf(plan: SheetPlan, picture: (upTo: number) => string): Promise<Buffer> {
  const breaks = stepBreaks(plan.placements.length);
  const images = await Promise.all([
    png(picture(Number.POSITIVE_INFINITY)),
    ...breaks.map((upTo) => png(picture(upTo))),
  ]);
  const document = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: plan.title, CreationDate: plan.plannedAt, ModDate: plan.plannedAt },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  document.fontSize(16).text(plan.title, { width: INNER });
  document.moveDown(0.5);
  document.image(images[0]!, { fit: [INNER, 420], align: 'center' });
  document.moveDown(0.5);
  document
    .fontSize(11)
    .text('Unloading: each stop, its boxes, and the boxes of later stops in its way', { width: INNER });
  document.fontSize(10);
  for (const stop of plan.stops) {
    const label = stop.stop === 0 ? 'One stop' : `Stop ${stop.stop}`;
    document.text(`${label}: ${stop.boxes} boxes, ${stop.boxes_to_move} to move`, { width: INNER });
  }

  // The load as it is built: two pictures a page.
  let from = 1;
  breaks.forEach((upTo, index) => {
    if (index % 2 === 0) document.addPage();
    const stops = [
      ...new Set(plan.placements.filter((p) => p.step >= from && p.step <= upTo).map((p) => p.stop)),
    ]
      .sort((a, b) => a - b)
      .map((stop) => (stop === 0 ? 'the load' : `stop ${stop}`));
    const top = MARGIN + (index % 2) * ((A4.height - 2 * MARGIN) / 2);
    document
      .fontSize(12)
      .text(
        `${index + 1}. Steps ${from} to ${upTo} of ${plan.placements.length}: ${stops.join(', ')}`,
        MARGIN,
        top,
        {
          width: INNER,
        },
      );
    document.image(images[index + 1]!, MARGIN, top + 20, {
      fit: [INNER, (A4.height - 2 * MARGIN) / 2 - 40],
      align: 'center',
    });
    from = upTo + 1;
  });
  document.end();
  return done;
}
