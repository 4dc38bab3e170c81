/**
 * The steps of opening a chat (the panel made, the kept transcript read, the snapshot posted…),
 * noted with their time for whoever listens: the benchmarks, which print where the time of
 * opening a search hit goes. Nothing listens otherwise, and a note costs one call.
 */
export type StepSink = (step: string, at: number, detail?: string) => void;

let sink: StepSink | undefined;

/** `at` in epoch milliseconds, with the fraction: comparable with a browser's on the same machine. */
export function noteStep(step: string, detail?: string): void {
  sink?.(step, performance.timeOrigin + performance.now(), detail);
}

/** Sets (or, with undefined, removes) the one listener. */
export function listenToSteps(listener: StepSink | undefined): void {
  sink = listener;
}
