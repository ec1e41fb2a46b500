/**
 * `npx vite-node scripts/profile-colliders.ts [-- --sizes 16,18,20] [--rounds N]`:
 * the plain step, the step with one plane collider and the typical shower
 * (registry gravity + drag + the plane), fused (the default) and with the
 * colliders as a pass of their own, at each size, alternating every round
 * (src/bench/colliderRatio.ts). Prints each one's median time and its ratio
 * to the plain step; the speed issue's targets are step + plane <= 1.3x and
 * gravity + drag + plane <= 1.5x at 2^20.
 */
import { acquireDevice } from '../src/node/device';
import { measureColliderRatio } from '../src/bench/colliderRatio';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const sizes = (flag('--sizes') ?? '16,18,20').split(',').map(Number);
const rounds = Number(flag('--rounds') ?? 9);
const separate = !process.argv.includes('--fused-only');

const { device, adapterInfo } = await acquireDevice();
try {
  process.stdout.write(`adapter: ${adapterInfo.description} (${adapterInfo.source})\n`);
  for (const log2 of sizes) {
    const result = await measureColliderRatio(device, 2 ** log2, { rounds, separate });
    process.stdout.write(`2^${log2}: step ${result.stepMs.toFixed(3)} ms\n`);
    for (const c of result.cases) {
      const spread = c.ratios.map((r) => r.toFixed(2)).join(' ');
      process.stdout.write(
        `  ${c.name}: ${c.ms.toFixed(3)} ms = ${c.ratio.toFixed(2)}x step, fastest rounds ${c.fastestRatio.toFixed(2)}x  [${spread}]\n`,
      );
    }
  }
} finally {
  device.destroy();
}
