import type { OtepTimeline } from '../timeline.ts';

/** The native format: the timeline itself, every other format is read from it. */
export function otep(timeline: OtepTimeline): OtepTimeline {
  return timeline;
}
