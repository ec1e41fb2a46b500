/**
 * Owns an exclusive prefix sum over one u32 buffer, in place
 * (shaders/scan.wgsl): blocks of 1,024 scanned level by level, the block
 * sums of each level scanned by the next, then added back down. Used by the
 * grid to turn bucket counts into bucket starts.
 */
import { dispatchSize } from './dispatch';
import { collisionShaders } from './collisionWgsl';

const BLOCK = 1024;

interface Level {
  count: number;
  blocks: number;
  bindGroup: GPUBindGroup;
}

export class ScanPass {
  private readonly levels: Level[] = [];
  private readonly owned: GPUBuffer[] = [];
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly scanBlocks: GPUComputePipeline,
    private readonly addOffsets: GPUComputePipeline,
  ) {}

  /** A scan of the first `count` u32s of `data`. Created synchronously: the caller's error scopes catch failures. */
  static create(device: GPUDevice, data: GPUBuffer, count: number, label: string): ScanPass {
    const layout = device.createBindGroupLayout({
      label: `${label}.layout`,
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      ],
    });
    const pipelineLayout = device.createPipelineLayout({
      label: `${label}.pipelineLayout`,
      bindGroupLayouts: [layout],
    });
    const module = device.createShaderModule({ label: 'scan.wgsl', code: collisionShaders.scan() });
    const pipeline = (entryPoint: string) =>
      device.createComputePipeline({
        label: `${label}.${entryPoint}`,
        layout: pipelineLayout,
        compute: { module, entryPoint },
      });
    const scan = new ScanPass(device, pipeline('scanBlocks'), pipeline('addOffsets'));
    let levelData = data;
    let levelCount = count;
    for (let level = 0; ; level++) {
      const blocks = Math.ceil(levelCount / BLOCK);
      const sums = device.createBuffer({
        label: `${label}.blockSums[${level}]`,
        size: Math.max(blocks, 4) * 4,
        usage: GPUBufferUsage.STORAGE,
      });
      const params = device.createBuffer({
        label: `${label}.params[${level}]`,
        size: 16,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(params, 0, new Uint32Array([levelCount, blocks, 0, 0]));
      scan.owned.push(sums, params);
      const bindGroup = device.createBindGroup({
        label: `${label}.bindGroup[${level}]`,
        layout,
        entries: [
          { binding: 0, resource: { buffer: levelData } },
          { binding: 1, resource: { buffer: sums } },
          { binding: 2, resource: { buffer: params } },
        ],
      });
      scan.levels.push({ count: levelCount, blocks, bindGroup });
      if (blocks === 1) break;
      levelData = sums;
      levelCount = blocks;
    }
    return scan;
  }

  /** Records the scan: every level up, then the offsets back down. */
  encode(encoder: GPUCommandEncoder): void {
    const max = this.device.limits.maxComputeWorkgroupsPerDimension;
    const pass = encoder.beginComputePass({ label: 'ScanPass' });
    pass.setPipeline(this.scanBlocks);
    for (const level of this.levels) {
      pass.setBindGroup(0, level.bindGroup);
      pass.dispatchWorkgroups(...dispatchSize(level.blocks, 1, max));
    }
    // The top level is one block, complete; each level below adds its scanned block sums.
    pass.setPipeline(this.addOffsets);
    for (let l = this.levels.length - 2; l >= 0; l--) {
      const level = this.levels[l] as Level;
      pass.setBindGroup(0, level.bindGroup);
      pass.dispatchWorkgroups(...dispatchSize(level.blocks, 1, max));
    }
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const buffer of this.owned) buffer.destroy();
  }
}
