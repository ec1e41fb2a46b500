/**
 * The bench page (bench.html): the same harness and report as `npm run bench`,
 * on the browser's WebGPU adapter, rendered as a table, the comparisons and
 * targets, and the SVG plot, with the JSON and SVG offered for download.
 */
import { acquireDevice } from '../gpu/device/device';
import { fullOptions, quickOptions, runBench, sizesFromExponents, type BenchOptions } from './harness';
import { benchSvg } from './plot';
import { buildReport, reportJson, summaryLines, tableRows, type BenchReport } from './report';

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`bench.html has no ${selector}`);
  return found;
}

const form = element<HTMLFormElement>('#controls');
const runButton = element<HTMLButtonElement>('#run');
const quick = element<HTMLInputElement>('#quick');
const sizesInput = element<HTMLInputElement>('#sizes');
const repeatsInput = element<HTMLInputElement>('#repeats');
const progress = element<HTMLProgressElement>('#progress');
const status = element<HTMLDivElement>('#status');
const adapterLine = element<HTMLDivElement>('#adapter');
const downloads = element<HTMLDivElement>('#downloads');
const tableHost = element<HTMLDivElement>('#table');
const summary = element<HTMLUListElement>('#summary');
const plot = element<HTMLDivElement>('#plot');

function say(text: string, error = false): void {
  status.className = error ? 'error' : '';
  status.textContent = text;
}

/** `16,18,20` or `16-24` as particle counts; empty: the mode's default. */
function parseSizes(text: string): number[] | null {
  if (text.trim() === '') return null;
  const sizes = sizesFromExponents(text);
  if (!sizes) {
    throw new Error(`sizes: exponents of two in [0, 30], e.g. 16,18,20 or 16-24; got ${JSON.stringify(text)}`);
  }
  return sizes;
}

function options(): BenchOptions {
  const chosen = quick.checked ? quickOptions() : fullOptions();
  const sizes = parseSizes(sizesInput.value);
  if (sizes) chosen.sizes = sizes;
  if (repeatsInput.value !== '') {
    const repeats = Number(repeatsInput.value);
    if (!Number.isInteger(repeats) || repeats < 1) throw new Error('repeats: an integer >= 1');
    chosen.repeats = repeats;
  }
  return chosen;
}

function renderTable(report: BenchReport): void {
  const { head, rows } = tableRows(report);
  const table = document.createElement('table');
  const headRow = table.createTHead().insertRow();
  for (const cell of head) {
    const th = document.createElement('th');
    th.textContent = cell;
    headRow.append(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  tableHost.replaceChildren(table);
}

function offer(name: string, type: string, text: string): HTMLAnchorElement {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.textContent = `download ${name}`;
  return link;
}

function render(report: BenchReport): void {
  renderTable(report);
  summary.replaceChildren(
    ...summaryLines(report).map((line) => {
      const li = document.createElement('li');
      li.textContent = line;
      return li;
    }),
  );
  const svg = benchSvg(report);
  // The SVG is built by plot.ts, every text in it escaped.
  plot.innerHTML = svg;
  downloads.querySelectorAll('a').forEach((old) => URL.revokeObjectURL(old.href));
  downloads.replaceChildren(
    offer('bench.json', 'application/json', reportJson(report)),
    document.createTextNode(' · '),
    offer('bench.svg', 'image/svg+xml', svg),
  );
}

async function run(): Promise<void> {
  const chosen = options();
  runButton.disabled = true;
  say('Requesting a WebGPU device…');
  const { device, adapterInfo } = await acquireDevice();
  const uncaptured: string[] = [];
  device.addEventListener('uncapturederror', (event) => {
    uncaptured.push((event as GPUUncapturedErrorEvent).error.message);
    say(`GPU error: ${uncaptured.join('\n')}`, true);
  });
  void device.lost.then((info) => {
    if (info.reason !== 'destroyed') say(`The GPU device was lost (${info.reason}): ${info.message}`, true);
  });
  adapterLine.textContent =
    `WebGPU adapter: ${adapterInfo.description || adapterInfo.vendor} (${adapterInfo.source}); ` +
    `timestamp queries: ${adapterInfo.timestampQuery ? 'yes' : 'no'}`;
  try {
    const report = buildReport(
      await runBench(device, adapterInfo, chosen, ({ done, total, current }) => {
        progress.max = total;
        progress.value = done;
        if (current) say(`${done + 1}/${total} runs: ${current}`);
      }),
    );
    render(report);
    say(`Finished ${report.cases.length} cases in ${(report.elapsedMs / 1000).toFixed(1)} s.`);
    document.body.dataset.benchDone = 'true';
  } finally {
    device.destroy();
    runButton.disabled = false;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  run().catch((error: unknown) => {
    runButton.disabled = false;
    say(error instanceof Error ? `${error.name}: ${error.message}` : String(error), true);
  });
});

// `bench.html?run` starts at once (for a headless browser); `?sizes=12&repeats=1` preset the form.
const query = new URLSearchParams(location.search);
if (query.has('sizes')) sizesInput.value = query.get('sizes') ?? '';
if (query.has('repeats')) repeatsInput.value = query.get('repeats') ?? '';
if (query.has('run')) form.requestSubmit();
