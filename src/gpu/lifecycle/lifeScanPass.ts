/**
 * Owns the lifecycle's scan (shaders/lifecycle/lifeScan.wgsl): the exclusive prefix
 * sums of (deaths, children) over the words of the death bits (32 live
 * indices a word), the levels between level 0 (counted and scanned by the
 * countDeaths pass, shaders/lifecycle/countDeaths.wgsl) and the top (a single block,
 * scanned with planEmit: src/gpu/lifecycle/lifePlanPass.ts), dispatched over a full
 * pool's blocks, those past the live count's returning at once. A pool of up to
 * 2^25 slots has none: two levels.
 */
import type { LifeBuffers } from './lifeBuffers';
import { shaders } from '../../shaders';
import { Kernel } from '../shared/kernel';
import { SCAN_LEVEL } from '../../shaders/params';
import { UniformBlock } from '../shared/uniformBlock';

export class LifeScanPass {
  private readonly scanGroups: GPUBindGroup[] = [];
  private readonly addGroups: GPUBindGroup[] = [];
  private readonly owned: UniformBlock[] = [];
  private destroyed = false;

  private constructor(
    private readonly buffers: LifeBuffers,
    /** Null with two levels (pools of up to 2^25 slots): no level between, no pipeline built. */
    private readonly scanBlocks: Kernel | null,
    private readonly addOffsets: Kernel | null,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, buffers: LifeBuffers): LifeScanPass {
    const L = buffers.levels.length;
    if (L < 3) return new LifeScanPass(buffers, null, null);
    const scanBlocks = Kernel.create(device, null, {
      name: 'LifeScanPass.scanBlocks',
      file: 'lifeScan.wgsl',
      code: () => shaders.lifeScan(),
      entryPoint: 'scanBlocks',
      particles: false,
      // input, output, block sums, counters, level.
      groups: [['read-only-storage', 'storage', 'storage', 'read-only-storage', 'uniform']],
    });
    const addOffsets = scanBlocks.variant({ name: 'LifeScanPass.addOffsets', entryPoint: 'addOffsets' });
    const scan = new LifeScanPass(buffers, scanBlocks, addOffsets);
    const inputOf = (l: number) => buffers.levelInputs[l - 1] as GPUBuffer;
    const outputOf = (l: number) => buffers.levelOutputs[l] as GPUBufferBinding;
    // Every level but level 0 (the deaths' words pass) and the top (LifePlanPass, with planEmit).
    for (let l = 1; l + 1 < L; l++) {
      const level = new UniformBlock(device, `LifeScanPass.level${l}`, SCAN_LEVEL);
      level.value.set('level', l);
      level.write();
      scan.owned.push(level);
      const group = (label: string, sums: GPUBufferBinding) =>
        scanBlocks.bindGroup(
          0,
          [inputOf(l), outputOf(l), sums, buffers.counters, level.buffer],
          `LifeScanPass.${label}[${l}]`,
        );
      // Scanning level l writes its block sums into level l + 1's input.
      scan.scanGroups.push(group('scanBindGroup', { buffer: buffers.levelInputs[l] as GPUBuffer }));
      // Adding back reads level l + 1's scanned output. Not into level 0: the compaction adds level 1's offsets itself.
      scan.addGroups.push(group('addBindGroup', outputOf(l + 1)));
    }
    return scan;
  }

  /** Every level up between level 0 and the top, into a compute pass the caller opened (after the deaths' words pass). */
  recordUp(pass: GPUComputePassEncoder): void {
    this.scanGroups.forEach((group, i) => {
      this.scanBlocks?.record(pass, [group], this.buffers.scanDispatch(i + 1));
    });
  }

  /** The offsets back down to level 1 (with three levels or more), after the top level (LifePlanPass.recordTopAndEmit). */
  recordDown(pass: GPUComputePassEncoder): void {
    // addGroups[i] is level i + 1's: from the second-highest level down to level 1.
    for (let i = this.addGroups.length - 1; i >= 0; i--) {
      const group = this.addGroups[i] as GPUBindGroup;
      this.addOffsets?.record(pass, [group], this.buffers.scanDispatch(i + 1));
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
  }
}
