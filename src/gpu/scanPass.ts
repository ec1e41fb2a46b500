/**
 * Owns an exclusive prefix sum over one u32 buffer, in place
 * (shaders/scan.wgsl): blocks of 1,024 scanned level by level, the block
 * sums of each level scanned by the next, then added back down. Used by the
 * grid to turn bucket counts into bucket starts.
 */
import { Kernel } from './kernel';
import { SCAN_PARAMS } from './passParams';
import { UniformBlock } from './uniformBlock';
import { shaders } from '../shaders';

const BLOCK = 1024;

interface Level {
  count: number;
  blocks: number;
  bindGroup: GPUBindGroup;
}

export class ScanPass {
  private readonly levels: Level[] = [];
  private readonly owned: { destroy(): void }[] = [];
  private destroyed = false;

  private constructor(
    private readonly scanBlocks: Kernel,
    private readonly addOffsets: Kernel,
  ) {}

  /** A scan of the first `count` u32s of `data`. Created synchronously: the caller's error scopes catch failures. */
  static create(device: GPUDevice, data: GPUBuffer, count: number, label: string): ScanPass {
    const scanBlocks = Kernel.create(device, null, {
      name: `${label}.scanBlocks`,
      file: 'scan.wgsl',
      code: shaders.scan(),
      entryPoint: 'scanBlocks',
      particles: false,
      // data, block sums, params.
      groups: [['storage', 'storage', 'uniform']],
    });
    const scan = new ScanPass(
      scanBlocks,
      scanBlocks.variant({ name: `${label}.addOffsets`, entryPoint: 'addOffsets' }),
    );
    let levelData = data;
    let levelCount = count;
    for (let level = 0; ; level++) {
      const blocks = Math.ceil(levelCount / BLOCK);
      const sums = device.createBuffer({
        label: `${label}.blockSums[${level}]`,
        size: Math.max(blocks, 4) * 4,
        usage: GPUBufferUsage.STORAGE,
      });
      const params = new UniformBlock(device, `${label}.params[${level}]`, SCAN_PARAMS);
      params.value.set('count', levelCount).set('blocks', blocks);
      params.write();
      scan.owned.push(sums, params);
      const bindGroup = scanBlocks.bindGroup(0, [levelData, sums, params.buffer], `${label}.bindGroup[${level}]`);
      scan.levels.push({ count: levelCount, blocks, bindGroup });
      if (blocks === 1) break;
      levelData = sums;
      levelCount = blocks;
    }
    return scan;
  }

  /** Records the scan: every level up, then the offsets back down. */
  encode(encoder: GPUCommandEncoder): void {
    const pass = encoder.beginComputePass({ label: 'ScanPass' });
    for (const level of this.levels) this.scanBlocks.record(pass, [level.bindGroup], { count: level.blocks });
    // The top level is one block, complete; each level below adds its scanned block sums.
    for (let l = this.levels.length - 2; l >= 0; l--) {
      const level = this.levels[l] as Level;
      this.addOffsets.record(pass, [level.bindGroup], { count: level.blocks });
    }
    pass.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const buffer of this.owned) buffer.destroy();
  }
}
