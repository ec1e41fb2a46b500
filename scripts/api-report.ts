/**
 * The package's types and its API report (`npm run build:lib` runs this after
 * tsc has written dist/types): api-extractor rolls each entry point's
 * declarations into one file beside its JavaScript (dist/lib/<entry>.d.ts, so
 * no consumer resolves extensionless paths), and compares the entry's public
 * API with the report checked in as etc/<entry>.api.md.
 *
 * `--local` (the default outside CI) rewrites a changed report; otherwise
 * (CI, `prepack` in CI, test/package.test.ts) a change fails the build: an
 * API change is a decision, made by committing the new report.
 */
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor';
import { fileURLToPath } from 'node:url';

/** Entry name -> its declaration file under dist/types. */
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
    mainEntryPointFilePath: `<projectFolder>/dist/types/${declarations}`,
    compiler: { tsconfigFilePath: '<projectFolder>/tsconfig.lib.json' },
    apiReport: {
      enabled: true,
      reportFileName: `${entry}.api.md`,
      reportFolder: '<projectFolder>/etc/',
      reportTempFolder: '<projectFolder>/dist/api-report/',
    },
    docModel: { enabled: false },
    // Members tagged @internal (used by the demos, tests and benchmarks from
    // the sources) are left out of what consumers see.
    dtsRollup: {
      enabled: true,
      untrimmedFilePath: '',
      publicTrimmedFilePath: `<projectFolder>/dist/lib/${entry}.d.ts`,
    },
    tsdocMetadata: { enabled: false },
    messages: {
      // The report lists what is reachable; these are reported, not fatal.
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
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
  const result = Extractor.invoke(config, { localBuild: local, showVerboseMessages: false });
  if (!result.succeeded) {
    failed = true;
    console.error(
      result.apiReportChanged
        ? `api-report: the public API of '${entry}' changed; compare etc/${entry}.api.md with dist/api-report/${entry}.api.md, ` +
            'and run `npm run build:lib -- --local` (or build outside CI) to accept it'
        : `api-report: api-extractor failed for '${entry}' (${result.errorCount} errors)`,
    );
  }
}
if (failed) process.exit(1);
