/**
 * `npm run bench -- [--quick] [--out bench.json] [--svg bench.svg] [--sizes 16,18,20]
 *   [--repeats N] [--target-ms MS] [--no-timestamps]`
 *
 * Runs the benchmark harness (src/bench/harness.ts) on this process's WebGPU
 * adapter, prints the table, the layout comparisons and the targets, and
 * writes the JSON and the SVG plot where asked. The progress bar goes to
 * stderr, so stdout carries only the results.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SingleBar } from 'cli-progress';
import Table from 'cli-table3';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { NoAdapterError } from '../src/gpu/device/device';
import { acquireDevice } from '../src/node/device';
import { fullOptions, quickOptions, runBench, sizesFromExponents, type Progress } from '../src/bench/harness';
import { benchSvg } from '../src/bench/plot';
import { buildReport, reportJson, summaryLines, tableRows } from '../src/bench/report';

interface Flags {
  quick?: true;
  out?: string;
  svg?: string;
  sizes?: number[];
  repeats?: number;
  targetMs?: number;
  timestamps: boolean;
}

function positiveInteger(flag: string) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isInteger(value) || value < 1) {
      throw new InvalidArgumentError(`${flag} must be an integer >= 1, not ${JSON.stringify(text)}`);
    }
    return value;
  };
}

/** `16,18,20` or `16-20`: powers of two given by their exponents. */
function parseSizes(text: string): number[] {
  const sizes = sizesFromExponents(text);
  if (!sizes || sizes.length === 0) {
    throw new InvalidArgumentError(
      `--sizes takes exponents of two in [0, 30], e.g. 16,18,20 or 16-24; got ${JSON.stringify(text)}`,
    );
  }
  return sizes;
}

function parseFlags(argv: string[]): Flags {
  const program = new Command('bench')
    .description('Benchmark the particle step, its layouts and rooflines on this WebGPU adapter.')
    .option(
      '--quick',
      'sizes 2^16, 2^18, 2^20 and 7 repeats (default: 2^16 ... 2^24, as memory allows): well under two minutes on a 2-core software adapter',
    )
    .option('--out <file>', 'write the JSON report here')
    .option('--svg <file>', 'write the SVG plot here')
    .option('--sizes <exponents>', 'particle counts as exponents of two: 16,18,20 or 16-24', parseSizes)
    .option('--repeats <n>', 'timed runs a case after the warm-up', positiveInteger('--repeats'))
    .option('--target-ms <ms>', 'wanted length of one timed run', positiveInteger('--target-ms'))
    .option('--no-timestamps', 'time with onSubmittedWorkDone even where timestamp queries exist')
    .exitOverride();
  // vite-node passes the `--` that npm run needs on to the script; it separates nothing here.
  program.parse(
    argv.filter((arg) => arg !== '--'),
    { from: 'user' },
  );
  return program.opts<Flags>();
}

function progressReporter(): { update(progress: Progress): void; stop(): void } {
  if (!process.stderr.isTTY) {
    return {
      update: ({ done, total, current }) => {
        if (current) process.stderr.write(`[${done + 1}/${total}] ${current}\n`);
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar({
    format: 'bench [{bar}] {value}/{total} runs | {eta_formatted} s left | {case}',
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 8,
  });
  let started = false;
  return {
    update: ({ done, total, current }) => {
      if (!started) {
        bar.start(total, done, { case: current });
        started = true;
      } else bar.update(done, { case: current });
    },
    stop: () => bar.stop(),
  };
}

async function main(argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  const options = flags.quick ? quickOptions() : fullOptions();
  if (flags.sizes) options.sizes = flags.sizes;
  if (flags.repeats) options.repeats = flags.repeats;
  if (flags.targetMs) options.targetMs = flags.targetMs;
  options.timestamps = flags.timestamps;

  let acquired;
  try {
    acquired = await acquireDevice();
  } catch (error) {
    if (!(error instanceof NoAdapterError)) throw error;
    process.stderr.write(`bench: ${error.message}\n`);
    return 1;
  }
  const { device, adapterInfo } = acquired;
  const uncaptured: string[] = [];
  device.addEventListener('uncapturederror', (event) => {
    uncaptured.push((event as GPUUncapturedErrorEvent).error.message);
  });
  process.stderr.write(
    `bench: ${adapterInfo.description} (${adapterInfo.source}); sizes ` +
      `${options.sizes.map((n) => `2^${Math.log2(n)}`).join(', ')}; ${options.repeats} repeats\n`,
  );
  const progress = progressReporter();
  let report;
  try {
    report = buildReport(await runBench(device, adapterInfo, options, (p) => progress.update(p)));
  } finally {
    progress.stop();
    device.destroy();
  }

  const { head, rows } = tableRows(report);
  const table = new Table({
    head,
    style: { head: [], border: [], compact: true },
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  });
  table.push(...rows);
  process.stdout.write(`${table.toString()}\n`);
  for (const line of summaryLines(report)) process.stdout.write(`${line}\n`);
  process.stdout.write(`finished ${report.cases.length} cases in ${(report.elapsedMs / 1000).toFixed(1)} s\n`);
  // A fresh clone has no bench-out/ (ignored): the folders are made, not a reason to lose the run.
  const write = async (path: string, text: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    process.stdout.write(`wrote ${path}\n`);
  };
  if (flags.out) await write(flags.out, reportJson(report));
  if (flags.svg) await write(flags.svg, benchSvg(report));
  if (uncaptured.length > 0) {
    process.stderr.write(`bench: uncaptured GPU errors:\n${uncaptured.join('\n')}\n`);
    return 1;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
