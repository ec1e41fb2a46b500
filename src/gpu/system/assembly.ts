/**
 * What `ParticleSystem.create` builds, in the order it must: every input
 * checked before any GPU object exists (a refused emitter builds nothing),
 * then the particle buffer and the passes inside one set of error scopes,
 * and on any failure everything built so far destroyed again.
 */
import { prepareColliders, type PackedColliders } from '../../core/collisions/colliders';
import { noLinks, type PackedLinks } from '../../core/collisions/links';
import {
  DEFAULT_CONTACT_SETTINGS,
  RadiusBound,
  prepareCollisionInputs,
  type ContactSettings,
} from '../../core/collisions/world';
import { parkSlot } from '../../core/emitters/lifecycle';
import { prepareLifecycle, type LifecycleOptions } from '../../core/emitters/options';
import { BYTES_PER_PARTICLE } from '../../core/layout';
import { HealthRecord, checkNonFinitePolicy } from '../../core/nonFinite';
import { defaultRecord } from '../../core/particles';
import { plainCopy } from '../../core/snapshot/format';
import { resolveVariant, type Variant } from '../../core/variants';
import { GpuCollisions } from '../collisions/collisions';
import { DeviceLossWatch, withErrorScopes } from '../device/errors';
import { GpuLifecycle } from '../lifecycle/lifecycle';
import { ParticleBuffer } from '../shared/particleBuffer';
import { ScatterPass } from '../shared/scatterPass';
import { IntegratePass } from '../step/integratePass';
import { besideParticles, checkWorkgroupOptions, type GpuParticleSystemOptions } from './options';
import type { InitialRange } from './writtenState';

/** A created system's parts: its buffer and passes, and what it keeps of its options. */
export interface SystemParts {
  variant: Variant;
  state: ParticleBuffer;
  integratePass: IntegratePass;
  scatterPass: ScatterPass;
  loss: DeviceLossWatch;
  /** Colliders, links and contacts; null until the first collision input. */
  collisions: GpuCollisions | null;
  collisionSettings: ContactSettings;
  /** The largest radius ever written, which sizes the collision grid's cells. */
  radii: RadiusBound;
  /** Emitters, lifetimes and recycling; null without emitters: every slot live. */
  lifecycle: GpuLifecycle | null;
  health: HealthRecord;
  fuseForces: boolean;
  fuseColliders: boolean;
  /** The emitter options as plain data (for snapshots); null without emitters. */
  lifecycleOptions: LifecycleOptions | null;
  /** The colliders and links as last set (for snapshots: the GPU holds them only in its buffers). */
  colliderRecords: PackedColliders;
  linkRecords: PackedLinks;
  /** What every slot holds until a write covers it. */
  initialRanges: InitialRange[];
}

/** Checks `options` and builds the parts on `device`, inside error scopes. */
export async function assembleSystem(device: GPUDevice, options: GpuParticleSystemOptions): Promise<SystemParts> {
  const variant = resolveVariant(options);
  const workgroupSize = checkWorkgroupOptions(device, options);
  const nonFinite = checkNonFinitePolicy(options.nonFinite);
  const loss = new DeviceLossWatch(device);
  loss.check();
  const collisionInputs = prepareCollisionInputs(options.collisions, options.capacity);
  const lifecycleInputs = prepareLifecycle(options, options.capacity);
  const radii = new RadiusBound();
  if (lifecycleInputs) radii.note(lifecycleInputs.rules.largestRadius);
  let state: ParticleBuffer | undefined;
  let integratePass: IntegratePass | undefined;
  let scatterPass: ScatterPass | undefined;
  let collisions: GpuCollisions | undefined;
  let lifecycle: GpuLifecycle | undefined;
  try {
    await withErrorScopes(
      device,
      `creating the particle system (capacity ${options.capacity}, ${options.capacity * BYTES_PER_PARTICLE} bytes of state)`,
      () => {
        const particles = new ParticleBuffer(device, options.capacity, {
          chunkParticles: options.chunkParticles,
          ...besideParticles(options, Boolean(lifecycleInputs)),
        });
        state = particles;
        particles.health.write(nonFinite);
        // Both build their pipelines before they return, so inside these scopes.
        const passes = Promise.all([
          IntegratePass.create(device, particles, variant, workgroupSize),
          ScatterPass.create(device, particles, workgroupSize),
        ]);
        if (options.collisions !== undefined) {
          collisions = GpuCollisions.create(device, particles, collisionInputs.settings, radii, workgroupSize);
          if (collisionInputs.colliders) collisions.setColliders(collisionInputs.colliders);
          if (collisionInputs.links) collisions.setLinks(collisionInputs.links);
        }
        if (lifecycleInputs)
          lifecycle = GpuLifecycle.create(device, particles, lifecycleInputs, variant, workgroupSize);
        return { passes };
      },
      async ({ passes }) => {
        [integratePass, scatterPass] = await passes;
      },
    );
  } catch (error) {
    lifecycle?.destroy();
    integratePass?.destroy();
    scatterPass?.destroy();
    collisions?.destroy();
    state?.destroy();
    throw error;
  }
  return {
    variant,
    state: state as ParticleBuffer,
    integratePass: integratePass as IntegratePass,
    scatterPass: scatterPass as ScatterPass,
    loss,
    collisions: collisions ?? null,
    collisionSettings: collisionInputs.settings ?? DEFAULT_CONTACT_SETTINGS,
    radii,
    lifecycle: lifecycle ?? null,
    health: new HealthRecord(nonFinite),
    fuseForces: options.fuseForces ?? true,
    fuseColliders: options.fuseColliders ?? true,
    lifecycleOptions: lifecycleInputs
      ? plainCopy({ emitters: options.emitters, fireworks: options.fireworks, permanent: options.permanent })
      : null,
    colliderRecords: collisionInputs.colliders ?? prepareColliders([]),
    linkRecords: collisionInputs.links ?? noLinks(options.capacity),
    initialRanges: initialRanges(options.capacity, lifecycleInputs ? lifecycleInputs.permanent : options.capacity),
  };
}

/**
 * Every slot starts as Cyclone's default particle: at rest, mass 1, no
 * damping. With emitters, the slots past the `permanent` ones start free:
 * parked (immovable, no collision radius).
 */
function initialRanges(capacity: number, permanent: number): InitialRange[] {
  const parked = defaultRecord();
  parkSlot(parked, 0);
  return [
    { start: 0, end: permanent, record: defaultRecord() },
    { start: permanent, end: capacity, record: parked },
  ].filter((range) => range.end > range.start);
}

/** The colliders pass and contact resolver, created on first use inside the caller's error scopes. */
export function ensureCollisions(device: GPUDevice, parts: SystemParts): GpuCollisions {
  parts.collisions ??= GpuCollisions.create(
    device,
    parts.state,
    parts.collisionSettings,
    parts.radii,
    parts.integratePass.workgroupSize,
  );
  return parts.collisions;
}
