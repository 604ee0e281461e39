/**
 * Label reading against the accuracy set (bench/ocr/set.ts): every label, clean and degraded,
 * read by the service's reader on one thread, and each field held against the truth. Prints
 * exact-match rates per field for clean and degraded labels, per degradation and per layout, the
 * wrong tracking numbers accepted as valid, and the time per label.
 *
 *   node --import tsx bench/ocr.ts [--layout ups] [--variant blurred] [--limit 20] [--dump failures.json]
 *                                  [--seed N] [--per-layout 6]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { LabelReader, type LabelReading } from '../src/modules/ocr/reading/index.ts';
import { compare, FIELDS, type Field, Tally, type Verdict } from './ocr/compare.ts';
import { TRACKING_BASE_URL } from './ocr/draw.ts';
import { generateSet, type LabelSample } from './ocr/set.ts';
import { percentile, say, seconds } from './support.ts';

const { values } = parseArgs({
  options: {
    layout: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    limit: { type: 'string' },
    dump: { type: 'string' },
    seed: { type: 'string' },
    'per-layout': { type: 'string' },
  },
});

// As the service runs it: its own labels' QR codes link to its tracking pages.
const reader = new LabelReader({ threads: 1, ownTrackingUrl: `${TRACKING_BASE_URL}/track` });

const overall = { clean: new Tally(), degraded: new Tally() };
const byVariant = new Map<string, Tally>();
const byLayout = new Map<string, { clean: Tally; degraded: Tally }>();
const times: number[] = [];
const failures: unknown[] = [];
const wrong: Array<{ id: string; truth: string; wrong: string[] }> = [];
const started = performance.now();
let done = 0;

const samples: LabelSample[] = [];
for await (const sample of generateSet({
  seed: values.seed ? Number(values.seed) : undefined,
  perLayout: values['per-layout'] ? Number(values['per-layout']) : undefined,
  layouts: values.layout,
  variants: values.variant,
  limit: values.limit ? Number(values.limit) : undefined,
})) {
  samples.push(sample);
}
say(`${samples.length} labels generated in ${seconds(started)}`);

const readStarted = performance.now();
for (const sample of samples) {
  let reading: LabelReading | null = null;
  let error: string | null = null;
  const before = performance.now();
  try {
    reading = await reader.read(sample.bytes, sample.mediaType);
  } catch (caught) {
    error = (caught as { code?: string }).code ?? String(caught);
  }
  const elapsed = performance.now() - before;
  times.push(elapsed);
  const verdict = compare(sample.truth, reading);
  const kind = sample.variant === 'clean' || sample.variant === 'pdf' ? 'clean' : 'degraded';
  overall[kind].add(verdict, error !== null);
  if (!byVariant.has(sample.variant)) byVariant.set(sample.variant, new Tally());
  byVariant.get(sample.variant)!.add(verdict, error !== null);
  if (!byLayout.has(sample.layout))
    byLayout.set(sample.layout, { clean: new Tally(), degraded: new Tally() });
  byLayout.get(sample.layout)![kind].add(verdict, error !== null);
  if (verdict.wrongNumbers.length > 0) {
    wrong.push({ id: sample.id, truth: sample.truth.tracking_number, wrong: verdict.wrongNumbers });
  }
  if (error || FIELDS.some((field) => !verdict.matched[field]))
    failures.push(failure(sample, verdict, reading, error));
  done++;
  say(
    `${done}/${samples.length} ${sample.id} ${(elapsed / 1000).toFixed(2)} s` +
      (error ? ` ${error}` : '') +
      (verdict.wrongNumbers.length ? ` WRONG ${verdict.wrongNumbers.join(',')}` : ''),
  );
}
await reader.close();

function failure(sample: LabelSample, verdict: Verdict, reading: LabelReading | null, error: string | null) {
  const { print: _print, ...truth } = sample.truth;
  return {
    id: sample.id,
    variant: sample.variant,
    detail: sample.detail,
    media_type: sample.mediaType,
    error,
    missed: FIELDS.filter((field) => !verdict.matched[field]),
    wrong_numbers: verdict.wrongNumbers,
    truth,
    fields: reading?.fields ?? null,
    barcodes: reading?.barcodes ?? null,
    text: reading?.text ?? null,
  };
}

const percent = (value: number) => (Number.isNaN(value) ? '–' : `${(value * 100).toFixed(1)} %`);
const SHORT: Record<Field, string> = {
  tracking_found: 'tracking no. (found)',
  tracking_first: 'tracking no. (first)',
  carrier: 'carrier',
  recipient_postal_code: 'recipient postal code',
  recipient_city: 'recipient city',
  recipient_country: 'recipient country',
  sender_postal_code: 'sender postal code',
  reference: 'reference',
  weight: 'weight (±1 %)',
  service_level: 'service level',
};
const table = (title: string, columns: Array<[string, Tally]>) => {
  const lines = [
    `### ${title}`,
    '',
    `| field | ${columns.map(([name, tally]) => `${name} (${tally.labels})`).join(' | ')} |`,
    `| --- | ${columns.map(() => '---').join(' | ')} |`,
    ...FIELDS.map(
      (field) =>
        `| ${SHORT[field]} | ${columns.map(([, tally]) => percent(tally.rate(field))).join(' | ')} |`,
    ),
    `| wrong numbers accepted | ${columns.map(([, tally]) => tally.wrongNumbers).join(' | ')} |`,
    `| read refused (error) | ${columns.map(([, tally]) => tally.failedReads).join(' | ')} |`,
    '',
  ];
  return lines.join('\n');
};

const sorted = [...times].sort((a, b) => a - b);
const out = [
  `Labels read: ${samples.length} in ${seconds(readStarted)} on one thread; time per label p50 ${(percentile(sorted, 50) / 1000).toFixed(2)} s, p99 ${(percentile(sorted, 99) / 1000).toFixed(2)} s, max ${((sorted.at(-1) ?? Number.NaN) / 1000).toFixed(2)} s`,
  '',
  table('Clean and degraded', [
    ['clean', overall.clean],
    ['degraded', overall.degraded],
  ]),
  table(
    'Per variant',
    [...byVariant.entries()].map(([name, tally]) => [name, tally]),
  ),
  table(
    'Per layout, clean',
    [...byLayout.entries()].map(([name, tallies]) => [name, tallies.clean]),
  ),
  table(
    'Per layout, degraded',
    [...byLayout.entries()].map(([name, tallies]) => [name, tallies.degraded]),
  ),
  wrong.length === 0
    ? 'No wrong tracking number accepted as valid.'
    : `Wrong tracking numbers accepted as valid:\n${wrong.map((w) => `- ${w.id}: ${w.wrong.join(', ')} (truth ${w.truth})`).join('\n')}`,
  '',
];
process.stdout.write(out.join('\n'));
if (values.dump) {
  await writeFile(values.dump, `${JSON.stringify(failures, null, 2)}\n`);
  say(`${failures.length} failures written to ${values.dump}`);
}
