/**
 * The pieces most GPU cases at one count are made of: the fields they share,
 * a ParticleSystem opened on the bench state, a case timing that system's
 * steps, and the check that a system steps under registry gravity without
 * its acceleration lane. src/bench/cases.ts builds its list from them.
 */
import { BYTES_PER_PARTICLE } from '../core/layout';
import { DEFAULT_VARIANT, type Variant } from '../core/variants';
import { DEFAULT_WORKGROUP_SIZE, ParticleSystem, type GpuParticleSystemOptions } from '../gpu/particleSystem';
import { PACKED_LAYOUT, type CaseFields, type CaseSpec } from './caseSpec';
import type { CaseGroup } from './results';
import { BYTES } from './roofline';
import { withoutAcceleration } from './state';
import type { GpuTimer } from './timing';

type SystemInit = Omit<GpuParticleSystemOptions, 'capacity'>;
type SystemSetup = (system: ParticleSystem) => void | Promise<void>;

/** The builders for the GPU cases of `particles` slots holding `state()`, stepped by `dt`. */
export function caseBuilders(
  device: GPUDevice,
  timer: GpuTimer,
  dt: number,
  particles: number,
  state: () => Float32Array<ArrayBuffer>,
) {
  const base = { particles, backend: 'gpu' as const };
  /** The fields of a case on the default variant's packed records at the default workgroup size. */
  const defaultStepFields = {
    variant: DEFAULT_VARIANT,
    layout: PACKED_LAYOUT,
    workgroupSize: DEFAULT_WORKGROUP_SIZE,
    memoryBytes: particles * BYTES_PER_PARTICLE,
  };
  /** A system of `particles` slots holding the bench state, then `setup`; destroyed if either fails. */
  const openSystem = async (init: SystemInit, setup?: SystemSetup): Promise<ParticleSystem> => {
    const system = await ParticleSystem.create(device, { capacity: particles, ...init });
    try {
      system.particles.write(0, state());
      await setup?.(system);
    } catch (error) {
      system.destroy();
      throw error;
    }
    return system;
  };
  /** A case that times `encodeSteps` of a system opened from `init` and `setup`. */
  const steppedCase = (fields: CaseFields, init: SystemInit, setup?: SystemSetup): CaseSpec => ({
    ...base,
    ...fields,
    open: async () => {
      const system = await openSystem(init, setup);
      return {
        run: (units) => timer.time((encoder) => system.encodeSteps(encoder, dt, units), fields.name),
        close: () => system.destroy(),
      };
    },
  });
  /** The plain step of `variant` at `workgroupSize`. */
  const stepCase = (variant: Variant, workgroupSize: number, name: string, group: CaseGroup): CaseSpec =>
    steppedCase(
      { ...defaultStepFields, name, group, variant, workgroupSize, bytes: BYTES.step },
      { ...variant, workgroupSize },
    );
  /**
   * Writes the bench state with its acceleration lane zeroed through the
   * public write, so the system knows every acceleration is +0 and steps
   * without the lane (gravity from the registry instead): what its bytes
   * count, checked here rather than assumed.
   */
  const underRegistryGravity = async (system: ParticleSystem, name: string) => {
    await system.writePacked(0, withoutAcceleration(state()));
    if (system.stepReadsAccelerationLane)
      throw new Error(`${name}: the step still reads the acceleration|radius lane; its bytes would not be ${name}'s`);
  };
  return { base, defaultStepFields, openSystem, steppedCase, stepCase, underRegistryGravity };
}
