/**
 * The package's types and its API report (`npm run build:lib` runs this after
 * tsc has written .build/types): api-extractor rolls each entry point's
 * declarations into one file beside its JavaScript (lib/<entry>.d.ts, so
 * no consumer resolves extensionless paths), and compares the entry's public
 * API with the report checked in as etc/<entry>.api.md.
 *
 * `--local` (the default outside CI) rewrites a changed report; otherwise
 * (CI, `prepack` in CI, test/package.test.ts) a change fails the build: an
 * API change is a decision, made by committing the new report. Whether an
 * item has a doc comment is left out of the comparison (api-extractor marks
 * "(undocumented)"): TypeDoc's check (`npm run docs`) owns that.
 */
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Entry name -> its declaration file under .build/types. */
export const API_ENTRIES = {
  index: 'index.d.ts',
  core: 'core.d.ts',
  render: 'render/index.d.ts',
  node: 'node.d.ts',
} as const;

const root = fileURLToPath(new URL('..', import.meta.url));
const local = process.argv.includes('--local') || (!process.argv.includes('--check') && !process.env.CI);

let failed = false;
for (const [entry, declarations] of Object.entries(API_ENTRIES)) {
  const configObject: IConfigFile = {
    projectFolder: root,
    mainEntryPointFilePath: `<projectFolder>/.build/types/${declarations}`,
    compiler: { tsconfigFilePath: '<projectFolder>/tsconfig.lib.json' },
    apiReport: {
      enabled: true,
      reportFileName: `${entry}.api.md`,
      // api-extractor writes here; the comparison with etc/ is below.
      reportFolder: '<projectFolder>/.build/api-report/',
      reportTempFolder: '<projectFolder>/.build/api-report/',
    },
    docModel: { enabled: false },
    // Members tagged @internal (used by the demos, tests and benchmarks from
    // the sources) are left out of what consumers see.
    dtsRollup: {
      enabled: true,
      untrimmedFilePath: '',
      publicTrimmedFilePath: `<projectFolder>/lib/${entry}.d.ts`,
    },
    tsdocMetadata: { enabled: false },
    messages: {
      // The report lists what is reachable; these are reported, not fatal.
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
      },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
    },
  };
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: `${root}package.json`,
  });
  const result = Extractor.invoke(config, { localBuild: true, showVerboseMessages: false });
  if (!result.succeeded) {
    failed = true;
    console.error(`api-report: api-extractor failed for '${entry}' (${result.errorCount} errors)`);
    continue;
  }
  const report = normalise(readFileSync(`${root}.build/api-report/${entry}.api.md`, 'utf8'));
  const checkedIn = `${root}etc/${entry}.api.md`;
  if (existsSync(checkedIn) && readFileSync(checkedIn, 'utf8') === report) continue;
  if (local) {
    mkdirSync(`${root}etc`, { recursive: true });
    writeFileSync(checkedIn, report);
    console.warn(
      `api-report: etc/${entry}.api.md updated: the public API of '${entry}' changed; commit it if you meant it`,
    );
  } else {
    failed = true;
    writeFileSync(`${root}.build/api-report/${entry}.api.md`, report);
    console.error(
      `api-report: the public API of '${entry}' changed; compare etc/${entry}.api.md with .build/api-report/${entry}.api.md, ` +
        'and run `npm run build:lib -- --local` (or build outside CI) to accept it',
    );
  }
}
if (failed) process.exit(1);

/** The report without api-extractor's "(undocumented)" notes. */
function normalise(report: string): string {
  return report
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '// (undocumented)' && !line.includes('(ae-undocumented)'))
    .map((line) => line.replace(/ \(undocumented\)$/, '').replace(/^(\s*\/\/ @\w+) \(undocumented\)$/, '$1'))
    .join('\n');
}
