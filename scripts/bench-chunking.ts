/**
 * `npm run bench:chunking [-- --sizes 24,25] [--rounds 3]`
 *
 * Chunked particle state (src/gpu/shared/particleBuffer.ts) against one chunk,
 * through src/bench/chunkingRatio.ts (the measurement `npm run bench` makes):
 * plain steps of a system in several storage buffers and of one in a single
 * buffer, timed in alternating rounds, compared per particle-step. At 2^24
 * (what one binding holds on SwiftShader) the chunked system is the same
 * size in four chunks; at 2^25 it is two chunks of 2^24 against 2^24 in one.
 * Sizes the device cannot hold or back with memory are reported as skipped.
 */
import { CHUNKING_RATIO_SIZES, chunkingRatioLines, measureChunkingRatio } from '../src/bench/chunkingRatio';
import { scriptFlags } from '../src/bench/options';
import { acquireDevice } from '../src/node/device';

const flags = scriptFlags(process.argv, (message) => {
  process.stderr.write(`bench:chunking: ${message}\n`);
  process.exit(1);
});
// Up to 2^28 (16 GiB of state): past one binding is the point.
const sizes = flags.exponents('--sizes', CHUNKING_RATIO_SIZES, 28);
const rounds = flags.integer('--rounds', 3, 1);

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(`bench:chunking on ${adapterInfo.description}\n`);
  const result = await measureChunkingRatio(device, { sizes, rounds });
  for (const line of chunkingRatioLines(result)) process.stdout.write(`${line}\n`);
} finally {
  device.destroy();
}
