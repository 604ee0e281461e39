/**
 * The accuracy set for label reading: labels of nine layouts with known truth, each clean and
 * in six degradations, generated from a fixed seed (nothing is committed as images).
 *
 *   node --import tsx bench/ocr/set.ts --out /tmp/ocr-set [--seed 1] [--per-layout 6] [--layout ups] [--variant blurred]
 *
 * writes every image and a truth.json beside them, to look at.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderPdfPage } from '../../src/modules/ocr/index.ts';
import { clean, DEGRADATIONS, degrade } from './degrade.ts';
import { labelPdf } from './draw.ts';
import { seeded } from './random.ts';
import { LAYOUTS, type LabelTruth, type Layout, makeTruth } from './truth.ts';

export const DEFAULT_SEED = 20261127;
export const VARIANTS = ['clean', 'pdf', ...DEGRADATIONS] as const;
export type Variant = (typeof VARIANTS)[number];
/** Phone photos and older printers vary: these layouts are drawn at 200 dpi, the rest at 300. */
const DPI: Record<Layout, number> = {
  tms: 300,
  ups: 300,
  fedex: 200,
  usps: 300,
  dhl_express: 200,
  canada_post: 300,
  royal_mail: 300,
  la_poste: 200,
  gs1_sscc: 300,
};

export interface SetOptions {
  seed?: number;
  perLayout?: number;
  layouts?: readonly string[];
  variants?: readonly string[];
  limit?: number;
}

export interface LabelSample {
  /** layout-index-variant, e.g. "ups-3-blurred". */
  id: string;
  layout: Layout;
  variant: Variant;
  detail: string;
  dpi: number;
  mediaType: 'image/png' | 'image/jpeg' | 'application/pdf';
  bytes: Buffer;
  truth: LabelTruth;
}

/** Every label's truth, in order: cheap, and the same for any subset asked of the images. */
export function truths(seed = DEFAULT_SEED, perLayout = 6): LabelTruth[] {
  const random = seeded(seed);
  return LAYOUTS.flatMap((layout) => Array.from({ length: perLayout }, () => makeTruth(random, layout)));
}

/** The labels one by one (an image is made only when asked for), clean first, then its variants. */
export async function* generateSet(options: SetOptions = {}): AsyncGenerator<LabelSample> {
  const seed = options.seed ?? DEFAULT_SEED;
  const perLayout = options.perLayout ?? 6;
  const wanted = (variant: Variant) => !options.variants || options.variants.includes(variant);
  let count = 0;
  for (const [position, truth] of truths(seed, perLayout).entries()) {
    if (options.layouts && !options.layouts.includes(truth.layout)) continue;
    const index = position % perLayout;
    const pdf = await labelPdf(truth);
    const dpi = DPI[truth.layout];
    const raw = await renderPdfPage(pdf, dpi);
    const base = { layout: truth.layout, dpi, truth };
    for (const [variantNumber, variant] of VARIANTS.entries()) {
      if (!wanted(variant)) continue;
      if (variant === 'pdf') {
        // The service's own labels also come as the PDF it rendered.
        if (truth.layout !== 'tms') continue;
        yield {
          ...base,
          id: `${truth.layout}-${index}-pdf`,
          variant,
          detail: '',
          mediaType: 'application/pdf',
          bytes: pdf,
        };
      } else {
        // Each variant draws from a generator of its own, so a subset of the set keeps its bytes.
        const random = seeded(seed * 1009 + position * 7919 + variantNumber * 104729);
        const image = variant === 'clean' ? await clean(raw) : await degrade(raw, variant, random);
        yield { ...base, id: `${truth.layout}-${index}-${variant}`, variant, ...image };
      }
      count++;
      if (options.limit !== undefined && count >= options.limit) return;
    }
  }
}

const EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' } as const;

async function writeSet(directory: string, options: SetOptions): Promise<void> {
  await mkdir(directory, { recursive: true });
  const written: Array<Omit<LabelSample, 'bytes'> & { file: string }> = [];
  const started = performance.now();
  for await (const sample of generateSet(options)) {
    const file = `${sample.id}.${EXTENSIONS[sample.mediaType]}`;
    await writeFile(path.join(directory, file), sample.bytes);
    const { bytes: _bytes, ...rest } = sample;
    written.push({ ...rest, file });
    process.stderr.write(`\r${written.length} labels`);
  }
  await writeFile(path.join(directory, 'truth.json'), `${JSON.stringify(written, null, 2)}\n`);
  process.stderr.write(
    `\r${written.length} labels in ${((performance.now() - started) / 1000).toFixed(1)} s -> ${directory}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      'per-layout': { type: 'string' },
      layout: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      limit: { type: 'string' },
    },
  });
  if (!values.out) throw new Error('--out DIRECTORY is required');
  await writeSet(values.out, {
    seed: values.seed ? Number(values.seed) : undefined,
    perLayout: values['per-layout'] ? Number(values['per-layout']) : undefined,
    layouts: values.layout,
    variants: values.variant,
    limit: values.limit ? Number(values.limit) : undefined,
  });
}
