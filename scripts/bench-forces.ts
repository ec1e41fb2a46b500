/**
 * `npm run bench:forces [-- --count N]`: the force pass of a typical effect
 * (gravity, drag, one attractor, turbulence) against the integration step, at
 * 1,048,576 particles by default, as a pass of its own and fused into the
 * step (the default). Prints both ratios; the goal is <= 1.
 */
import { acquireDevice } from '../src/node/device';
import { measureForceToStepRatio } from '../src/bench/forceRatio';
import { TYPICAL_EFFECT } from '../src/bench/typicalEffect';
import { positiveIntegerFlag } from './flags';

const count = positiveIntegerFlag('bench:forces', 'count', 1 << 20);

const { device, adapterInfo } = await acquireDevice();
try {
  const result = await measureForceToStepRatio(device, count);
  const effect = TYPICAL_EFFECT.map((g) => g.type).join(' + ');
  process.stdout.write(
    [
      `adapter: ${adapterInfo.description} (${adapterInfo.source})`,
      `particles: ${count}`,
      `force pass (${effect}): ${result.forceMs.toFixed(2)} ms`,
      `integration step (explicit, per-second damping): ${result.stepMs.toFixed(2)} ms`,
      `force pass time / step time: ${result.ratio.toFixed(3)} ` +
        `(median of ${result.ratios.length} rounds: ${result.ratios.map((r) => r.toFixed(2)).join(', ')})`,
      `step with the forces fused in (the default): ${result.fusedMs.toFixed(2)} ms`,
      `(fused step - step) / step: ${result.fusedRatio.toFixed(3)} ` +
        `(median of ${result.fusedRatios.length} rounds: ${result.fusedRatios.map((r) => r.toFixed(2)).join(', ')})`,
      '',
    ].join('\n'),
  );
} finally {
  device.destroy();
}
