/**
 * The entry of the label reader threads (platform/workers.ts): decodes the image, reads its
 * barcodes and text, and gives them meaning. Each thread keeps its recogniser between labels.
 */
import { parentPort } from 'node:worker_threads';
import { readLabelPixels } from './modules/ocr/index.ts';
import { AppError } from './platform/errors.ts';
import type { WorkerAnswer } from './platform/workers.ts';

parentPort!.on(
  'message',
  async (task: { kind: string; input: { bytes: Uint8Array; type: string; ownTrackingUrl?: string } }) => {
    let answer: WorkerAnswer;
    try {
      if (task.kind !== 'read_label') throw new Error(`no task ${task.kind}`);
      answer = {
        result: await readLabelPixels(
          Buffer.from(task.input.bytes),
          task.input.type,
          task.input.ownTrackingUrl,
        ),
      };
    } catch (error) {
      answer =
        error instanceof AppError
          ? {
              error: error.message,
              code: error.code,
              params: error.options.params,
              details: error.options.details,
            }
          : { error: error instanceof Error ? error.message : String(error) };
    }
    parentPort!.postMessage(answer);
  },
);
