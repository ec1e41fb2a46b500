/**
 * The progress bar a long CLI run (simulate's steps, render's frames) draws
 * on stderr, with the look and the non-terminal behaviour both commands share.
 */
import { SingleBar } from 'cli-progress';

/** A bar on `stream` in `format`, started at `start` of `total`. */
export function startProgressBar(
  stream: NodeJS.WritableStream,
  format: string,
  total: number,
  start: number,
): SingleBar {
  const bar = new SingleBar({
    stream,
    format,
    barsize: 30,
    hideCursor: true,
    // Not a terminal (a log file, CI): a line every 10 s instead of redrawing.
    noTTYOutput: true,
    notTTYSchedule: 10_000,
  });
  bar.start(total, start);
  return bar;
}
