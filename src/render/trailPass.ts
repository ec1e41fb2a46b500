/**
 * Trails: a ribbon behind each particle through its last `length` positions,
 * kept on the GPU (src/core/look/trails.ts has the records, the curves and
 * the CPU reference). Two passes, one WGSL file each:
 *
 * - record (shaders/render/trailsRecord.wgsl): a compute pass over every slot
 *   that writes each particle's position into its ring. Record it after the
 *   steps you want sampled: once a frame (after `system.encodeSteps`) keeps
 *   the last `length` frames; after each step keeps the last `length` steps.
 *   With emitters (a binding with the system's `liveBuffers`) it reads the
 *   life record: a free slot's ring is emptied and a recycled slot's ring
 *   starts over (its generation differs from the ring's), so a new particle
 *   never draws through its predecessor's positions.
 * - draw (shaders/render/trails.wgsl): a camera-facing ribbon through each
 *   ring, newest sample first, one triangle strip for the draw (2 vertices a
 *   sample, each shaded once; no instancing, slow on SwiftShader), its width
 *   and colour from curves (src/core/look/curves.ts) over the trail's
 *   normalised length, premultiplied alpha-blended or additive. Read in the vertex shader: no readback.
 *
 * A TrailBinding owns its rings (heads and samples) and uniform blocks; the
 * pass owns its pipelines and a stand-in life buffer for systems without
 * emitters. Both have destroy().
 */
import { SparkworksInputError } from '../core/errors';
import type { LiveSource } from '../gpu/lifecycle/lifeBuffers';
import { Kernel } from '../gpu/shared/kernel';
import { BYTES_PER_LIFE, type ParticleChunking } from '../core/layout';
import { chunkingKey, storeOf, type ParticleStore } from '../gpu/shared/particleBuffer';
import type { ParticleSource } from './particleBinding';
import {
  checkTrailLength,
  DEFAULT_TRAIL_CURVES,
  packTrailCurves,
  TRAIL_DRAW_PARAMS,
  TRAIL_HEAD,
  TRAIL_RECORD_PARAMS,
  TRAIL_STOP,
  trailRuleMask,
  type TrailCurves,
  validateTrailCurves,
} from '../core/look/trails';
import {
  ADDITIVE,
  createDrawPipeline,
  createDrawShader,
  DrawBinding,
  PREMULTIPLIED_OVER,
  type DrawShader,
} from './drawPipeline';
import type { BlendMode, DrawView } from './particleLook';
import { shaders } from '../shaders';

const WORKGROUP_SIZE = 64;
const BLEND: Record<BlendMode, GPUBlendState> = { additive: ADDITIVE, alpha: PREMULTIPLIED_OVER };

/** How trails look: width and colour along them, and how they blend. */
export interface TrailLook {
  /** Ribbon width in world units where the width curve is 1. */
  width: number;
  /** Width and colour over the trail's normalised length (src/core/look/trails.ts). */
  curves: TrailCurves;
  /** 'alpha': premultiplied over (unsorted); 'additive': light adds up. */
  blend: BlendMode;
  /** Multiplies the colour (not the alpha). */
  intensity: number;
}

/** The default TrailLook: 0.05 world units wide, DEFAULT_TRAIL_CURVES (narrowing, fading white), additive, intensity 1. */
export const DEFAULT_TRAIL_LOOK: TrailLook = {
  width: 0.05,
  curves: DEFAULT_TRAIL_CURVES,
  blend: 'additive',
  intensity: 1,
};

/** What a binding records and draws. */
export interface TrailBindingOptions {
  /** Slots with a ring: the first `count` particle records (with `live`, its capacity). */
  count: number;
  /** Samples a ring keeps, 2..256: the trail's length in recordings. */
  length: number;
  /** A system with emitters: its `liveBuffers`, so free and recycled slots restart their trails. */
  live?: LiveSource | null;
  /**
   * With `live`: the spawn rules (emitters first, then firework rules) whose
   * particles have trails here, e.g. a campfire's sparks but not its smoke;
   * the other slots keep none. Default: every rule.
   */
  rules?: readonly number[] | null;
}

/** One set of rings over a particle buffer, with its uniform blocks and bind groups. Owns its buffers. */
export class TrailBinding extends DrawBinding<typeof TRAIL_DRAW_PARAMS.fields> {
  /** Per slot: TrailHead (next sample, samples held, generation). */
  readonly heads: GPUBuffer;
  /** Per slot: `length` vec4f, xyz a recorded position. */
  readonly samples: GPUBuffer;
  /** The record pass's uniform block (written once: count and length). */
  readonly recordParams: GPUBuffer;
  /** @internal */
  readonly recordGroup: GPUBindGroup;

  constructor(
    device: GPUDevice,
    layout: GPUBindGroupLayout,
    /** The record pass's kernels for the store's chunking (plain and with life records). @internal */
    readonly recordKernels: Record<'plain' | 'life', Kernel>,
    label: string,
    particles: ParticleStore,
    life: GPUBuffer,
    /** Slots with a ring: the first `count` particle records. */
    readonly count: number,
    /** Samples a ring keeps, 2..256. */
    readonly length: number,
    /** Whether it reads a system's life records (bound with `live`): free slots keep no trail, recycled ones restart. */
    readonly hasLife: boolean,
    rings: { heads: GPUBuffer; samples: GPUBuffer },
    /** trailRuleMask of the spawn rules recorded (with life records). */
    ruleMask: readonly [number, number] = [0xffffffff, 0xffffffff],
  ) {
    super(device, layout, label, TRAIL_DRAW_PARAMS, [rings.heads, rings.samples, life]);
    this.heads = rings.heads;
    this.samples = rings.samples;
    const params = TRAIL_RECORD_PARAMS.value()
      .set('count', count)
      .set('length', length)
      .set('rulesLow', ruleMask[0])
      .set('rulesHigh', ruleMask[1]);
    this.recordParams = device.createBuffer({
      label: `${label}.trailRecordParams`,
      size: TRAIL_RECORD_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.recordParams, 0, params.bytes);
    // The store's first chunk at binding 1, its other chunks after the rings (the composition's moreChunksAt).
    const [first, ...more] = particles.buffers;
    this.recordGroup = recordKernels.plain.bindGroup(
      0,
      [this.recordParams, first as GPUBuffer, life, this.heads, this.samples, ...more],
      `${label}.recordGroup`,
    );
  }

  protected override release(): void {
    this.heads.destroy();
    this.samples.destroy();
    this.recordParams.destroy();
  }

  /** Whether destroy() was called. */
  get isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** Records particle positions into rings on the GPU and draws them as ribbons. */
export class TrailPass {
  /** The record pass's kernels per chunking of the particle store ('one' made at once). */
  private readonly recordKernels = new Map<string, Record<'plain' | 'life', Kernel>>();
  private readonly shader: DrawShader;
  private readonly pipelines = new Map<string, GPURenderPipeline>();
  /** Bound where a binding has no life records: never read (HAS_LIFE false). */
  private readonly noLife: GPUBuffer;
  private destroyed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly format: GPUTextureFormat,
    private readonly depthFormat: GPUTextureFormat,
  ) {
    this.recordKernelsFor(null);
    this.shader = createDrawShader(device, {
      name: 'TrailPass',
      file: 'render/trails.wgsl',
      code: shaders.renderTrails(TRAIL_HEAD, TRAIL_STOP, TRAIL_DRAW_PARAMS),
      storageBuffers: 3,
    });
    this.noLife = device.createBuffer({
      label: 'TrailPass.noLife',
      size: BYTES_PER_LIFE,
      usage: GPUBufferUsage.STORAGE,
    });
  }

  /**
   * Rings of `length` samples for the first `count` records of `particles`
   * (`system.buffer`), empty until recorded. With `live` (`system.liveBuffers`),
   * `count` must be its capacity. The caller owns the binding and destroys it.
   */
  bind(label: string, particles: ParticleSource, options: TrailBindingOptions): TrailBinding {
    const store = storeOf(particles);
    const { count, live = null, rules = null } = options;
    const length = checkTrailLength(options.length, `${label}: trail length`);
    if (rules !== null && live === null) {
      throw new SparkworksInputError(
        `${label}: trails for some spawn rules need the system's live source (its life records)`,
        'live',
        live,
      );
    }
    const ruleMask = trailRuleMask(rules, `${label}: rules`);
    if (!Number.isInteger(count) || count < 1)
      throw new SparkworksInputError(`${label}: count ${count} must be an integer >= 1`, 'count', count);
    if (live && count !== live.capacity) {
      throw new SparkworksInputError(
        `${label}: count ${count} must be the live source's capacity ${live.capacity}`,
        'count',
        count,
      );
    }
    if (store.capacity < count) {
      throw new SparkworksInputError(`${label}: the buffer holds fewer than ${count} particle records`, 'count', count);
    }
    const heads = this.device.createBuffer({
      label: `${label}.heads`,
      size: count * TRAIL_HEAD.size,
      // Created zeroed: every ring empty.
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    const samples = this.device.createBuffer({
      label: `${label}.samples`,
      size: count * length * 16,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    return new TrailBinding(
      this.device,
      this.shader.layout,
      this.recordKernelsFor(store.chunking),
      label,
      store,
      live?.life ?? this.noLife,
      count,
      length,
      live !== null,
      { heads, samples },
      ruleMask,
    );
  }

  /**
   * Records each slot's current position into its ring: a compute pass in
   * `encoder`, after the steps it should sample (see the module's note).
   */
  record(encoder: GPUCommandEncoder, binding: TrailBinding): void {
    if (this.destroyed || binding.isDestroyed) return;
    const pass = encoder.beginComputePass({ label: `${binding.label}.record` });
    const kernel = binding.hasLife ? binding.recordKernels.life : binding.recordKernels.plain;
    kernel.record(pass, [binding.recordGroup], { count: binding.count });
    pass.end();
  }

  /** The record kernels over a store split as `chunking`: its first chunk at binding 1, the others after the rings. */
  private recordKernelsFor(chunking: ParticleChunking | null): Record<'plain' | 'life', Kernel> {
    const key = chunkingKey(chunking);
    let kernels = this.recordKernels.get(key);
    if (kernels) return kernels;
    const bindings = ['uniform', 'read-only-storage', 'read-only-storage', 'storage', 'storage'] as const;
    const record = Kernel.create(this.device, null, {
      name: 'TrailPass.record',
      file: 'render/trailsRecord.wgsl',
      code: () =>
        shaders.renderTrailsRecord(TRAIL_HEAD, TRAIL_RECORD_PARAMS, { moreChunksAt: bindings.length, chunking }),
      constants: { WORKGROUP_SIZE, HAS_LIFE: 0 },
      groups: [
        [...bindings, ...Array.from({ length: (chunking?.chunks ?? 1) - 1 }, () => 'read-only-storage' as const)],
      ],
      particles: false,
    });
    kernels = {
      plain: record,
      life: record.variant({ name: 'TrailPass.record(life)', constants: { WORKGROUP_SIZE, HAS_LIFE: 1 } }),
    };
    this.recordKernels.set(key, kernels);
    return kernels;
  }

  /** Empties every ring of `binding` (e.g. after a restore or a teleport), in `encoder`. */
  reset(encoder: GPUCommandEncoder, binding: TrailBinding): void {
    if (this.destroyed || binding.isDestroyed) return;
    encoder.clearBuffer(binding.heads);
  }

  /** Creates the pipeline now (e.g. inside an error scope) rather than at its first draw. */
  prepare(blend: BlendMode, hasLife: boolean): GPURenderPipeline {
    const key = `${blend}/${hasLife ? 'life' : 'plain'}`;
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      pipeline = createDrawPipeline(this.device, this.shader, {
        label: `TrailPass.pipeline(${key})`,
        vertexEntry: 'trailVertex',
        fragmentEntry: 'trailFragment',
        constants: { HAS_LIFE: hasLife ? 1 : 0 },
        format: this.format,
        blend: BLEND[blend],
        topology: 'triangle-strip',
        // Tested against the scene's depth, never written, like the particles.
        depthFormat: this.depthFormat,
        depthWriteEnabled: false,
        depthCompare: 'less',
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /**
   * Records one draw of `binding`'s trails into `pass` (a render pass the
   * caller began): one strip, 2 * length + 2 vertices a slot (samples not
   * yet held folded onto the oldest, hidden slots outside the clip volume).
   * One binding holds one uniform block: one draw per submit.
   */
  draw(pass: GPURenderPassEncoder, binding: TrailBinding, look: TrailLook, view: DrawView): void {
    if (this.destroyed || binding.isDestroyed) return;
    const d = binding.data;
    d.set('viewProjection', view.viewProjection)
      .set('viewport', [view.width, view.height, view.focalPixels, 0])
      .set('width', look.width)
      .set('intensity', look.intensity)
      .set('count', binding.count)
      .set('length', binding.length);
    packTrailCurves(d, validateTrailCurves('TrailLook.curves', look.curves));
    binding.record(pass, this.prepare(look.blend, binding.hasLife));
    pass.draw((2 * binding.length + 2) * binding.count);
  }

  /** Frees what this pass created (pipelines need no freeing). Bindings are their owners'. Safe twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.noLife.destroy();
    this.pipelines.clear();
  }
}
