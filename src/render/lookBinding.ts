/**
 * Bind group 1 of a particle draw, the look (shaders/render/particles.wgsl):
 * the curve sets (set 0 the draw's curves, set 1 + r spawn rule r's), the
 * SpriteParams block, the sprite texture and sampler, and the scene's depth
 * for soft particles. One per ParticleBinding, which owns it.
 *
 * Nothing is done per frame for a look that has not changed: the curves and
 * sprite are validated and uploaded when the look's `curves`, `rules`,
 * `sprite`, `spriteImage` or `sceneDepth` is a different object than at the
 * last draw (they are treated as immutable), so the per-frame cost is five
 * comparisons.
 */
import { hasCurves, CURVE_SET, SPRITE_PARAMS, writeCurveSet, writeSpriteParams } from '../core/look/records';
import { curvesOfRule, validateLookCurves, type LookCurves } from '../core/look/curves';
import { validateSprite, type ResolvedSprite } from '../core/look/sprite';
import { MAX_SPAWN_RULES } from '../core/emitters/gpuRecords';
import { validator } from '../core/validation';
import type { ParticleLook } from './particleLook';
import type { SpriteTextures } from './spriteTextures';

const check = validator();

/** The pipeline variant a look needs (override constants of shaders/render/particles.wgsl). */
export interface LookVariant {
  curves: boolean;
  textured: boolean;
  /** 0: screen-aligned, 1: velocity-aligned. */
  orient: number;
  soft: boolean;
}

/** The variant `look` is drawn with (it is not validated here: the draw does that). */
export function lookVariant(look: Pick<ParticleLook, 'curves' | 'rules' | 'sprite' | 'sceneDepth'>): LookVariant {
  const shape = look.sprite?.shape ?? 'soft';
  return {
    curves: hasCurves(look.curves) || (Array.isArray(look.rules) && look.rules.some(hasCurves)),
    textured: shape !== 'soft',
    orient: look.sprite?.orient === 'velocity' ? 1 : 0,
    soft: look.sceneDepth !== undefined,
  };
}

/** The layout of bind group 1, the look: shared by every particle pipeline of a pass. */
export function createLookLayout(device: GPUDevice): GPUBindGroupLayout {
  const { VERTEX, FRAGMENT } = GPUShaderStage;
  return device.createBindGroupLayout({
    label: 'ParticlePass.lookLayout',
    entries: [
      { binding: 0, visibility: VERTEX, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: VERTEX | FRAGMENT, buffer: { type: 'uniform' } },
      { binding: 2, visibility: FRAGMENT, texture: { sampleType: 'float' } },
      { binding: 3, visibility: FRAGMENT, sampler: { type: 'filtering' } },
      { binding: 4, visibility: FRAGMENT, texture: { sampleType: 'depth' } },
    ],
  });
}

/** Validates the look's curves, rules and sprite (refusals name `look.curves`, `look.rules[2]`, `look.sprite.flipbook.rows`). */
export function validateLook(look: Pick<ParticleLook, 'curves' | 'rules' | 'sprite' | 'spriteImage' | 'sceneDepth'>): {
  curves: LookCurves | undefined;
  rules: (LookCurves | undefined)[];
  sprite: ResolvedSprite;
} {
  const curves = look.curves === undefined ? undefined : validateLookCurves('look.curves', look.curves);
  let rules: (LookCurves | undefined)[] = [];
  if (look.rules !== undefined) {
    if (!Array.isArray(look.rules) || look.rules.length > MAX_SPAWN_RULES) {
      check.refuse('look.rules', look.rules, `must be a list of at most ${MAX_SPAWN_RULES} curves (one a spawn rule)`);
    }
    rules = look.rules.map((rule: unknown, i) =>
      rule === null || rule === undefined ? undefined : validateLookCurves(`look.rules[${i}]`, rule),
    );
  }
  const sprite = validateSprite('look.sprite', look.sprite);
  if (sprite.shape === 'image' && !look.spriteImage) {
    check.refuse('look.spriteImage', look.spriteImage, "must be given where look.sprite.shape is 'image'");
  }
  const depth = look.sceneDepth;
  if (
    depth !== undefined &&
    (!depth.format?.startsWith('depth') || depth.sampleCount !== 1 || !(depth.usage & GPUTextureUsage.TEXTURE_BINDING))
  ) {
    check.refuse(
      'look.sceneDepth',
      depth.label || 'a GPUTexture',
      'must be a single-sampled depth texture with TEXTURE_BINDING usage (not the attachment drawn into)',
    );
  }
  return { curves, rules, sprite };
}

export class LookBinding {
  private curveBuffer: GPUBuffer;
  private readonly spriteBuffer: GPUBuffer;
  private readonly spriteBlock = SPRITE_PARAMS.value();
  private group: GPUBindGroup | null = null;
  private seen: unknown[] = [];
  private current: LookVariant = { curves: false, textured: false, orient: 0, soft: false };
  private freed = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly layout: GPUBindGroupLayout,
    private readonly textures: SpriteTextures,
    private readonly label: string,
  ) {
    this.curveBuffer = this.createCurveBuffer(1);
    this.spriteBuffer = device.createBuffer({
      label: `${label}.spriteParams`,
      size: SPRITE_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** Uploads what changed since the last draw and returns the variant to draw with; `bindGroup` is then current. */
  update(look: ParticleLook): LookVariant {
    const inputs = [look.curves, look.rules, look.sprite, look.spriteImage, look.sceneDepth];
    if (this.group && inputs.every((input, i) => input === this.seen[i])) return this.current;
    const { curves, rules, sprite } = validateLook(look);
    // Set 0: the draw's curves; set 1 + r: rule r's, each field falling back to the draw's.
    const sets = CURVE_SET.array(1 + rules.length);
    writeCurveSet(sets, 0, curves ?? {});
    rules.forEach((_, r) => writeCurveSet(sets, 1 + r, curvesOfRule(curves, rules, r)));
    if (sets.bytes.byteLength > this.curveBuffer.size) {
      this.curveBuffer.destroy();
      this.curveBuffer = this.createCurveBuffer(1 + rules.length);
    }
    this.device.queue.writeBuffer(this.curveBuffer, 0, sets.bytes);
    writeSpriteParams(this.spriteBlock, sprite);
    this.device.queue.writeBuffer(this.spriteBuffer, 0, this.spriteBlock.bytes);
    const texture =
      sprite.shape === 'soft'
        ? this.textures.white
        : sprite.shape === 'image'
          ? this.textures.image(look.spriteImage!, 'look.spriteImage')
          : this.textures.shape(sprite.shape);
    const depth = look.sceneDepth ?? this.textures.noDepth;
    this.group = this.device.createBindGroup({
      label: `${this.label}.lookBindGroup`,
      layout: this.layout,
      entries: [
        // The whole buffer: the shader finds the table's length with arrayLength.
        { binding: 0, resource: { buffer: this.curveBuffer, size: sets.bytes.byteLength } },
        { binding: 1, resource: { buffer: this.spriteBuffer } },
        { binding: 2, resource: texture.createView() },
        { binding: 3, resource: this.textures.sampler(sprite.filter) },
        { binding: 4, resource: depth.createView({ aspect: 'depth-only' }) },
      ],
    });
    this.current = lookVariant(look);
    this.seen = inputs;
    return this.current;
  }

  get bindGroup(): GPUBindGroup {
    if (!this.group) throw new Error(`${this.label}: the look is bound at the first draw`);
    return this.group;
  }

  /** Frees the curve and sprite buffers. Safe twice. */
  destroy(): void {
    if (this.freed) return;
    this.freed = true;
    this.curveBuffer.destroy();
    this.spriteBuffer.destroy();
  }

  private createCurveBuffer(sets: number): GPUBuffer {
    return this.device.createBuffer({
      label: `${this.label}.curveSets`,
      size: sets * CURVE_SET.size,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }
}
