/**
 * The bench's cases at one count: the copy rooflines, the step of every
 * variant and its alternatives (workgroup sizes, layouts, registry gravity),
 * the forces, the colliders, the emitter pools and the CPU reference. The
 * order here is the order they run and are reported in; src/bench/runner.ts
 * runs them.
 */
import { CpuParticleSystem } from '../core/cpuParticleSystem';
import { BYTES_PER_PARTICLE } from '../core/layout';
import { ALL_VARIANTS, DEFAULT_VARIANT, variantName } from '../core/variants';
import { DEFAULT_WORKGROUP_SIZE, type ParticleSystem } from '../gpu/particleSystem';
import { caseBuilders } from './caseBuilders';
import { PACKED_LAYOUT, type CaseSpec } from './caseSpec';
import { CopyPass } from './copyPass';
import { emitterCase } from './emitterCase';
import { BENCH_POOLS } from './emitters';
import { WORKGROUP_SIZES, type BenchOptions } from './options';
import { BYTES, totalBytes } from './roofline';
import { SoAStepPass } from './soaPass';
import { BENCH_ACCELERATION, BENCH_PLANE, benchForces } from './state';
import { timeHost, type GpuTimer } from './timing';
import { SHOWER_FORCES, TYPICAL_EFFECT } from './typicalEffect';
import { UniformAccelerationPass } from './uniformAccelerationPass';

export const NOT_MEASURED = [
  'particle-particle contacts (the grid and the Jacobi resolver) are not a case of this harness: on a software ' +
    'adapter they cost hundreds of steps; the run times them against the step in three alternating rounds at 2^16 ' +
    'and 2^18 where it reaches them (contactRatio), and npm run bench:collisions and ' +
    'scripts/profile-contacts.ts time them pass by pass.',
];

/** The cases at one count, in the order they run. */
export function casesAt(
  device: GPUDevice,
  timer: GpuTimer,
  options: BenchOptions,
  particles: number,
  state: () => Float32Array<ArrayBuffer>,
): CaseSpec[] {
  const { dt } = options;
  const { base, defaultStepFields, openSystem, steppedCase, stepCase, underRegistryGravity } = caseBuilders(
    device,
    timer,
    dt,
    particles,
    state,
  );
  const copyCase = (name: string, kernel: boolean): CaseSpec => ({
    ...base,
    name,
    group: 'roofline',
    variant: null,
    layout: kernel ? 'copy.wgsl, 4 vec4 an invocation' : 'copyBufferToBuffer',
    workgroupSize: kernel ? DEFAULT_WORKGROUP_SIZE : null,
    bytes: BYTES.copy,
    memoryBytes: 2 * particles * BYTES_PER_PARTICLE,
    open: async () => {
      const pass = CopyPass.create(device, particles * BYTES.copy.read, DEFAULT_WORKGROUP_SIZE);
      device.queue.writeBuffer(pass.source, 0, state());
      return {
        run: (units) =>
          timer.time((encoder) => (kernel ? pass.encode(encoder, units) : pass.encodeBufferCopy(encoder, units)), name),
        close: () => pass.destroy(),
      };
    },
  });
  const addTypicalEffect = (system: ParticleSystem) => {
    for (const generator of TYPICAL_EFFECT) system.forces.add(generator);
  };
  const variantTail = variantName(DEFAULT_VARIANT);

  const cases: CaseSpec[] = [copyCase('copy', true), copyCase('buffer-copy', false)];
  for (const variant of ALL_VARIANTS) {
    cases.push(stepCase(variant, DEFAULT_WORKGROUP_SIZE, `step/${variantName(variant)}`, 'step'));
  }
  // The step with the non-finite test compiled out (policy 'off'): what the test costs (src/core/nonFinite.ts).
  cases.push(
    steppedCase(
      { ...defaultStepFields, name: `step-no-finite-check/${variantTail}`, group: 'step', bytes: BYTES.step },
      { ...DEFAULT_VARIANT, workgroupSize: DEFAULT_WORKGROUP_SIZE, nonFinite: 'off' },
    ),
  );
  // The plain step under registry gravity: the same motion as `step/` (gravity BENCH_ACCELERATION), from the
  // registry, fused into the step, instead of each particle's acceleration lane, which the step then skips.
  const registryGravityName = `step-registry-gravity/${variantTail}`;
  cases.push(
    steppedCase(
      {
        ...defaultStepFields,
        name: registryGravityName,
        group: 'force',
        layout: `${PACKED_LAYOUT}, no acceleration lane read`,
        bytes: BYTES.stepWithoutAccelerationLane,
        note:
          "the default step with gravity from the registry (fused in) and every particle's own acceleration +0: " +
          'the step reads neither the acceleration|radius lane nor the accumulator',
      },
      DEFAULT_VARIANT,
      async (system) => {
        system.forces.add({ type: 'gravity', g: [...BENCH_ACCELERATION] });
        await underRegistryGravity(system, registryGravityName);
      },
    ),
  );
  for (const size of WORKGROUP_SIZES) {
    if (size === DEFAULT_WORKGROUP_SIZE || size > device.limits.maxComputeInvocationsPerWorkgroup) continue;
    cases.push(stepCase(DEFAULT_VARIANT, size, `step-wg${size}/${variantTail}`, 'workgroup'));
  }
  cases.push({
    ...base,
    ...defaultStepFields,
    name: `step-soa/${variantTail}`,
    group: 'layout',
    layout: 'structure of arrays, 6 buffers, xyz packed',
    bytes: BYTES.soa,
    memoryBytes: particles * totalBytes(BYTES.soa),
    open: async () => {
      const pass = SoAStepPass.create(device, particles, DEFAULT_VARIANT, DEFAULT_WORKGROUP_SIZE);
      pass.write(state());
      return {
        run: (units) => timer.time((encoder) => pass.encode(encoder, dt, units), 'step-soa'),
        close: () => pass.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    ...defaultStepFields,
    name: `step-uniform-acceleration/${variantTail}`,
    group: 'layout',
    layout: `${PACKED_LAYOUT}, acceleration from the uniform`,
    bytes: BYTES.uniformAcceleration,
    open: async () => {
      const system = await openSystem(DEFAULT_VARIANT);
      let pass: UniformAccelerationPass | undefined;
      try {
        pass = UniformAccelerationPass.create(device, system.particles, DEFAULT_VARIANT, DEFAULT_WORKGROUP_SIZE);
      } catch (error) {
        system.destroy();
        throw error;
      }
      const created = pass;
      return {
        run: (units) =>
          timer.time(
            (encoder) => created.encode(encoder, BENCH_ACCELERATION, dt, particles, units),
            'step-uniform-acceleration',
          ),
        close: () => {
          created.destroy();
          system.destroy();
        },
      };
    },
  });
  cases.push({
    ...base,
    ...defaultStepFields,
    name: 'scatter-add-forces',
    group: 'force',
    variant: null,
    bytes: BYTES.scatterAdd,
    memoryBytes: particles * (BYTES_PER_PARTICLE + 16 + 12),
    note: 'ParticleSystem.addForces end to end: host validation and packing, upload, scatter.wgsl; wall time',
    open: async () => {
      const system = await openSystem(DEFAULT_VARIANT);
      const forces = benchForces(particles);
      return {
        run: (units) =>
          timeHost(async () => {
            for (let u = 0; u < units; u++) await system.addForces(0, forces);
            await device.queue.onSubmittedWorkDone();
          }),
        close: () => system.destroy(),
      };
    },
  });
  cases.push({
    ...base,
    ...defaultStepFields,
    name: 'forces-typical',
    group: 'force',
    variant: null,
    bytes: BYTES.forces,
    note: 'the force pass of a typical effect (gravity, drag, an attractor, turbulence): one forces.wgsl dispatch',
    open: async () => {
      const system = await openSystem(DEFAULT_VARIANT, addTypicalEffect);
      return {
        run: (units) =>
          timer.time((encoder) => {
            for (let u = 0; u < units; u++) system.encodeForces(encoder, dt);
          }, 'forces-typical'),
        close: () => system.destroy(),
      };
    },
  });
  cases.push(
    steppedCase(
      {
        ...defaultStepFields,
        name: 'collisions-plane',
        group: 'collisions',
        bytes: BYTES.stepPlane,
        note:
          'a step with one plane collider (y = 0, under about half the particles), fused into the step ' +
          '(integrate.wgsl + fusedColliders.wgsl), no particle-particle contacts (radius 0)',
      },
      DEFAULT_VARIANT,
      (system) => system.setColliders([BENCH_PLANE]),
    ),
  );
  cases.push(
    steppedCase(
      {
        ...defaultStepFields,
        name: 'collisions-plane-typical',
        group: 'collisions',
        bytes: BYTES.stepPlaneWithoutAccelerationLane,
        note:
          "a spark shower's step: gravity (the registry's) and drag fused into the step with the plane " +
          '(collisions-plane), one dispatch a step; every acceleration and radius +0, so the step skips their lane',
      },
      DEFAULT_VARIANT,
      async (system) => {
        for (const generator of SHOWER_FORCES) system.forces.add(generator);
        await system.setColliders([BENCH_PLANE]);
        await underRegistryGravity(system, 'collisions-plane-typical');
      },
    ),
  );
  cases.push(
    steppedCase(
      {
        ...defaultStepFields,
        name: 'step-with-typical-forces',
        group: 'force',
        variant: null,
        // Fused: the step's own loads and stores, the forces computed in between.
        bytes: BYTES.step,
        note: 'the default step with the typical effect fused into it (integrateForces.wgsl): one dispatch a step',
      },
      DEFAULT_VARIANT,
      addTypicalEffect,
    ),
  );
  for (const pool of BENCH_POOLS) cases.push(emitterCase(device, timer, dt, particles, pool));
  // The CPU reference for every variant: `cpu-reference` is the default one, the GPU/CPU target's.
  for (const variant of ALL_VARIANTS) {
    const isDefault = variantName(variant) === variantTail;
    cases.push({
      ...base,
      name: isDefault ? 'cpu-reference' : `cpu-reference/${variantName(variant)}`,
      group: 'cpu',
      backend: 'cpu',
      variant,
      layout: `${PACKED_LAYOUT}, Float32Array`,
      workgroupSize: null,
      bytes: BYTES.cpu,
      memoryBytes: particles * BYTES_PER_PARTICLE,
      note: 'CpuParticleSystem (float32, Math.fround), one thread, in this process',
      open: async () => {
        const cpu = new CpuParticleSystem({ capacity: particles, ...variant, precision: 'float32' });
        cpu.state.set(state());
        return { run: (units) => timeHost(() => cpu.stepMany(dt, units)), close: () => cpu.destroy() };
      },
    });
  }
  return cases;
}
