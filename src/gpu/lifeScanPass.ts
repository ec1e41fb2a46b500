/**
 * Owns the lifecycle's scan (shaders/lifeScan.wgsl): the exclusive prefix
 * sums of (lives on, children) over the live list, every level dispatched
 * indirectly with the block counts planStep derived from the live count.
 */
import { ARGS } from './lifecycleWgsl';
import type { LifeBuffers } from './lifeBuffers';
import { lifecycleShaders } from './lifecycleWgsl';

export class LifeScanPass {
  private readonly scanGroups: GPUBindGroup[] = [];
  private readonly addGroups: GPUBindGroup[] = [];
  private readonly owned: GPUBuffer[] = [];
  private destroyed = false;

  private constructor(
    private readonly buffers: LifeBuffers,
    private readonly scanBlocks: GPUComputePipeline,
    private readonly addOffsets: GPUComputePipeline,
  ) {}

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(device: GPUDevice, buffers: LifeBuffers): LifeScanPass {
    const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'LifeScanPass.layout',
      entries: [
        entry(0, 'read-only-storage'),
        entry(1, 'storage'),
        entry(2, 'storage'),
        entry(3, 'read-only-storage'),
        entry(4, 'uniform'),
      ],
    });
    const pipelineLayout = device.createPipelineLayout({
      label: 'LifeScanPass.pipelineLayout',
      bindGroupLayouts: [layout],
    });
    const module = device.createShaderModule({ label: 'lifeScan.wgsl', code: lifecycleShaders.scan() });
    const pipeline = (entryPoint: string) =>
      device.createComputePipeline({
        label: `LifeScanPass.${entryPoint}`,
        layout: pipelineLayout,
        compute: { module, entryPoint },
      });
    const scan = new LifeScanPass(buffers, pipeline('scanBlocks'), pipeline('addOffsets'));
    const L = buffers.levels.length;
    const inputOf = (l: number) => (l === 0 ? buffers.flags : (buffers.levelInputs[l - 1] as GPUBuffer));
    const outputOf = (l: number) => buffers.levelOutputs[l] as GPUBufferBinding;
    for (let l = 0; l < L; l++) {
      const level = device.createBuffer({
        label: `LifeScanPass.level${l}`,
        size: 16,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(level, 0, new Uint32Array([l, 0, 0, 0]));
      scan.owned.push(level);
      const group = (label: string, sums: GPUBufferBinding) =>
        device.createBindGroup({
          label: `LifeScanPass.${label}[${l}]`,
          layout,
          entries: [
            { binding: 0, resource: { buffer: inputOf(l) } },
            { binding: 1, resource: outputOf(l) },
            { binding: 2, resource: sums },
            { binding: 3, resource: { buffer: buffers.counters } },
            { binding: 4, resource: { buffer: level } },
          ],
        });
      // Scanning level l writes its block sums into level l + 1's input (the last: the total).
      scan.scanGroups.push(group('scanBindGroup', { buffer: buffers.levelInputs[l] as GPUBuffer }));
      // Adding back reads level l + 1's scanned output. Not into level 0: the compaction adds level 1's offsets itself.
      if (l >= 1 && l + 1 < L) scan.addGroups.push(group('addBindGroup', outputOf(l + 1)));
    }
    return scan;
  }

  /** Every level up, then the offsets back down to level 1, into a compute pass the caller opened (after the ageing). */
  record(pass: GPUComputePassEncoder): void {
    const args = this.buffers.args;
    pass.setPipeline(this.scanBlocks);
    this.scanGroups.forEach((group, l) => {
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroupsIndirect(args, (ARGS.scan + 4 * l) * 4);
    });
    pass.setPipeline(this.addOffsets);
    // addGroups[i] is level i + 1's: from the second-highest level down to level 1.
    for (let i = this.addGroups.length - 1; i >= 0; i--) {
      pass.setBindGroup(0, this.addGroups[i] as GPUBindGroup);
      pass.dispatchWorkgroupsIndirect(args, (ARGS.scan + 4 * (i + 1)) * 4);
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
  }
}
