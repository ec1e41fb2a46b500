/**
 * The lifecycle's bookkeeping on both backends: the pool's invariants over
 * thousands of frames of random emission and death (and the GPU's lists equal
 * to the CPU reference's, frame by frame), rates and bursts, the shortfall,
 * determinism, and Cyclone's fireworks spawning what each rule says.
 */
import { describe, expect, it } from 'vitest';
import { CYCLONE_FIREWORK_RULES, cycloneLaunchers } from '../src/core/emitters/cyclone';
import { fixedPointIncrement } from '../src/core/emitters/emitterSet';
import { NO_FLOOR, type EmitterInit } from '../src/core/emitters/types';
import { useDevice } from './support/gpu';
import { generations, lifecycleInvariantFailure } from './support/lifecycleChecks';
import { cpuRig, gpuRig, type LifeRig, type RigOptions } from './support/lifecycleRig';
import { seededRandom } from './support/random';
import { LARGE } from './support/tiers';

const gpu = useDevice();
/**
 * Exact by construction, so the backends' lists can be compared exactly on
 * any conforming GPU (WGSL lets + and * round to either neighbour, and fuse):
 * dt is a power of two, so every age (a sum of dt) is a float32 with no
 * rounding; lifetimes are [0, 2^k], so min + span * u = 2^k * u is exact too.
 * Both backends then kill the same particles on the same frame.
 */
const DT = 1 / 64;
const DT32 = DT;

const CHURN: RigOptions = {
  capacity: 256,
  permanent: 3,
  particles: [{ position: [0, 0, 0] }, { position: [1, 0, 0], inverseMass: 0 }, { position: [2, 0, 0] }],
  emitters: [
    {
      rate: 200,
      lifetime: [0, 0.5],
      shape: { type: 'sphere', radius: 1 },
      velocity: { spread: 0.5, speed: [1, 2] },
    },
    { rate: 50, burst: 20, lifetime: [0, 0.25], shape: { type: 'box', halfExtents: [1, 2, 3] } },
    {
      rate: 0,
      lifetime: [0, 1],
      shape: { type: 'disc', radius: 2 },
      velocity: { min: [-1, 0, -1], max: [1, 3, 1] },
    },
  ],
};

/** The host's random changes for frame `frame`: new rates and bursts, the same for every backend. */
function churn(random: () => number, rig: LifeRig): void {
  if (random() < 0.05) rig.emitters.set(Math.floor(random() * 3), { rate: Math.floor(random() * 400) });
  if (random() < 0.03) rig.emitters.burst(Math.floor(random() * 3), Math.floor(random() * 120));
}

// Thousands of frames: the length is the point (the pool fills, the shortfall path runs, slots recycle).
describe('the pool over thousands of frames of random emission and death', LARGE, () => {
  it('CPU reference, 5,000 frames: live + free = capacity, no slot twice, no live particle lost', async () => {
    const rig = cpuRig(CHURN);
    const random = seededRandom(11);
    let before = await rig.readLifecycle();
    let sawShortfall = false;
    for (let frame = 1; frame <= 5000; frame++) {
      churn(random, rig);
      // Who must survive this step: not past their lifetime after it (nothing else kills here).
      const survivors = Array.from(before.live).filter(
        (slot) => Math.fround(before.life.get(slot, 'age') + DT32) <= before.life.get(slot, 'lifetime'),
      );
      const born = generations(before.live, before.life);
      rig.step(DT);
      const after = await rig.readLifecycle();
      const failure = lifecycleInvariantFailure(after, rig.state, rig.capacity, frame);
      if (failure) expect.fail(failure);
      const now = generations(after.live, after.life);
      for (const slot of survivors) {
        if (now.get(slot) !== born.get(slot)) expect.fail(`frame ${frame}: live particle in slot ${slot} was lost`);
      }
      expect(after.stats.emitted - after.stats.killed).toBe(after.stats.live - 3);
      sawShortfall ||= after.stats.shortfall > 0;
      before = after;
    }
    // The scenario did fill the pool (bursts past the free space), so the shortfall path ran too.
    expect(sawShortfall).toBe(true);
    expect(before.stats.killed).toBeGreaterThan(10_000);
  });

  it('GPU, 2,000 frames: the same invariants, and the same lists as the CPU reference every frame', async () => {
    const { device } = gpu.get();
    const system = await gpuRig(device, CHURN);
    const reference = cpuRig(CHURN);
    const randomGpu = seededRandom(11);
    const randomCpu = seededRandom(11);
    try {
      for (let frame = 1; frame <= 2000; frame++) {
        churn(randomGpu, system);
        churn(randomCpu, reference);
        await system.stepMany(DT, 1);
        reference.step(DT);
        const [view, state] = await Promise.all([system.readLifecycle(), system.readPacked()]);
        const failure = lifecycleInvariantFailure(view, state, system.capacity, frame);
        if (failure) expect.fail(`GPU ${failure}`);
        const expected = await reference.readLifecycle();
        if (view.live.join() !== expected.live.join()) expect.fail(`frame ${frame}: the GPU's live list differs`);
        if (view.free.join() !== expected.free.join()) expect.fail(`frame ${frame}: the GPU's free list differs`);
        expect(view.stats).toEqual(expected.stats);
        for (const slot of view.live) {
          for (const field of ['age', 'generation', 'rule', 'color'] as const) {
            if (view.life.get(slot, field) !== expected.life.get(slot, field)) {
              expect.fail(
                `frame ${frame}: slot ${slot} ${field}: GPU ${view.life.get(slot, field)}, CPU ${expected.life.get(slot, field)}`,
              );
            }
          }
        }
      }
    } finally {
      system.destroy();
    }
  });
});

describe('the scan across its levels', () => {
  // Blocks of 1,024: 5,000 slots need two levels, 1,048,600 three (the third only past 1,024^2 live). Every
  // level runs the blocks a full pool has, those past the live words returning at once.
  const name = '%i slots, %i frames: the GPU’s lists equal the CPU reference’s while most die and are reborn';
  const scanAcrossLevels = async (capacity: number, frames: number) => {
    const options: RigOptions = {
      capacity,
      emitters: [
        // [0, 2^-3]: the same lifetimes on both backends (see DT).
        { burst: capacity - 10, rate: capacity * 20, lifetime: [0, 0.125], velocity: { speed: 1, spread: 1 } },
      ],
    };
    const { device } = gpu.get();
    const system = await gpuRig(device, options);
    const reference = cpuRig(options);
    try {
      for (let frame = 1; frame <= frames; frame++) {
        await system.stepMany(DT, 1);
        reference.step(DT);
        const [view, expected] = await Promise.all([system.readLifecycle(), reference.readLifecycle()]);
        expect(view.stats, `frame ${frame}`).toEqual(expected.stats);
        if (view.live.join() !== expected.live.join()) expect.fail(`frame ${frame}: the GPU's live list differs`);
        if (view.free.join() !== expected.free.join()) expect.fail(`frame ${frame}: the GPU's free list differs`);
      }
      const { stats } = await reference.readLifecycle();
      // The pool was full past 1,024^2 live at the largest size, and particles died and were reborn.
      expect(stats.killed).toBeGreaterThan(capacity / 4);
      expect(stats.live).toBeGreaterThan(capacity / 2);
    } finally {
      system.destroy();
    }
  };
  it.each([[5000, 8]] as const)(name, scanAcrossLevels);
  // The third level exists only past 1,024^2 slots: size is the point.
  it.each([[1_048_600, 4]] as const)(name, LARGE, scanAcrossLevels);
});

describe('rates and bursts', () => {
  /** Particles a rate of r emits in n steps of dt, by the 32.32 increment: floor(n * inc). */
  function expectedCount(rate: number, steps: number): number {
    const [whole, fraction] = fixedPointIncrement(rate, DT32);
    return Math.floor(steps * (whole + fraction / 2 ** 32));
  }

  it.each([
    ['0.5 per second', 0.5],
    ['37.3 per second', 37.3],
    ['1,000 per second', 1000],
    ['0 per second', 0],
  ])('a rate of %s for 10 s emits r * T within one particle, on both backends', LARGE, async (_, rate) => {
    const options: RigOptions = { capacity: 20_000, emitters: [{ rate, lifetime: 100 }] };
    const steps = 600;
    const seconds = steps * DT32;
    const { device } = gpu.get();
    const system = await gpuRig(device, options);
    const reference = cpuRig(options);
    try {
      // Two submissions, so the carried fraction crosses a submit too.
      await system.stepMany(DT, 250);
      await system.stepMany(DT, steps - 250);
      await reference.stepMany(DT, steps);
      for (const [name, rig] of [
        ['GPU', system],
        ['CPU', reference],
      ] as const) {
        const { stats } = await rig.readLifecycle();
        expect(Math.abs(stats.emitted - rate * seconds), `${name}: emitted ${stats.emitted}`).toBeLessThanOrEqual(1);
        expect(stats.emitted, name).toBe(expectedCount(rate, steps));
        expect(stats.shortfall, name).toBe(0);
      }
    } finally {
      system.destroy();
    }
  });

  it('a burst larger than the free space emits what fits and reports the rest; nothing live is overwritten', async () => {
    const options: RigOptions = {
      capacity: 100,
      permanent: 10,
      particles: Array.from({ length: 10 }, (_, i) => ({ position: [i, 0, 0], velocity: [0, 1, 0] })),
      emitters: [{ burst: 150, lifetime: 100 }],
    };
    const { device } = gpu.get();
    const system = await gpuRig(device, options);
    const reference = cpuRig(options);
    try {
      for (const [name, rig] of [
        ['GPU', system],
        ['CPU', reference],
      ] as const) {
        await rig.stepMany(DT, 1);
        let view = await rig.readLifecycle();
        expect(view.stats, name).toMatchObject({ live: 100, free: 0, emitted: 90, shortfall: 60, killed: 0 });
        // Another burst into a full pool: all short, the permanent particles untouched.
        rig.emitters.burst(0, 7);
        await rig.stepMany(DT, 1);
        view = await rig.readLifecycle();
        expect(view.stats, name).toMatchObject({ live: 100, emitted: 90, shortfall: 67 });
        for (let slot = 0; slot < 10; slot++) {
          expect(view.life.get(slot, 'generation'), `${name} slot ${slot}`).toBe(1);
          expect(view.life.get(slot, 'rule'), `${name} slot ${slot}`).toBe(0xffffffff);
        }
        const state = await rig.readPacked();
        expect(state[16 * 4 + 0], `${name}: permanent particle 4 x`).toBe(4);
      }
    } finally {
      system.destroy();
    }
  });
});

describe('determinism', () => {
  const options = (seed: number): RigOptions => ({
    capacity: 4096,
    emitters: [
      {
        rate: 3000,
        burst: 500,
        lifetime: [0.2, 0.9],
        shape: { type: 'cone', angle: 0.4, height: 2 },
        velocity: { direction: [1, 1, 0], spread: 0.8, speed: [1, 5] },
        mass: [0.5, 2],
        damping: [0.4, 0.99],
        seed,
      },
    ],
    fireworks: CYCLONE_FIREWORK_RULES,
  });

  async function run(rig: LifeRig): Promise<[Uint32Array, Uint32Array]> {
    rig.emitters.burst(0, 100);
    await rig.stepMany(DT, 90);
    const [state, view] = await Promise.all([rig.readPacked(), rig.readLifecycle()]);
    return [new Uint32Array(state.buffer.slice(0)), new Uint32Array(view.life.words)];
  }

  it('the same seed and steps give the same particles twice, bit for bit, on the GPU and on the CPU', async () => {
    const { device } = gpu.get();
    const first = await gpuRig(device, options(7));
    const second = await gpuRig(device, options(7));
    const other = await gpuRig(device, options(8));
    try {
      const [a, b, c] = [await run(first), await run(second), await run(other)];
      expect(Buffer.from(a[0].buffer).equals(Buffer.from(b[0].buffer))).toBe(true);
      expect(Buffer.from(a[1].buffer).equals(Buffer.from(b[1].buffer))).toBe(true);
      // A different seed gives different particles.
      expect(Buffer.from(a[0].buffer).equals(Buffer.from(c[0].buffer))).toBe(false);
    } finally {
      for (const rig of [first, second, other]) rig.destroy();
    }
    const [x, y] = [await run(cpuRig(options(7))), await run(cpuRig(options(7)))];
    expect(Buffer.from(x[0].buffer).equals(Buffer.from(y[0].buffer))).toBe(true);
  });
});

describe('Cyclone’s fireworks as sub-emitters', () => {
  /** Cyclone's nine rules, each launched by its own emitter, plus a few key presses. */
  const launchers: EmitterInit[] = cycloneLaunchers(0.7, 3);
  const options: RigOptions = { capacity: 1 << 14, emitters: launchers, fireworks: CYCLONE_FIREWORK_RULES };
  const steps = 900;

  it.each(['GPU', 'CPU'] as const)(
    '%s: each type is born as often as its launches plus its parents’ payloads say',
    // 900 steps: long enough for children's children to be born and die.
    LARGE,
    async (backend) => {
      const rig = backend === 'CPU' ? cpuRig(options) : await gpuRig(gpu.get().device, options);
      try {
        rig.emitters.burst(0, 2); // key '1' twice
        rig.emitters.burst(6, 1); // key '7'
        await rig.stepMany(DT, 300);
        await rig.stepMany(DT, steps - 300);
        const { stats } = await rig.readLifecycle();
        expect(stats.shortfall).toBe(0);
        const [whole, fraction] = fixedPointIncrement(0.7, DT32);
        const launchedByRate = Math.floor(steps * (whole + fraction / 2 ** 32));
        const bursts: Record<number, number> = { 1: 2, 7: 1 };
        let total = 0;
        for (const rule of CYCLONE_FIREWORK_RULES) {
          const t = rule.type;
          // Children of type t: every death of a parent type p delivers its payload count of t.
          let children = 0;
          for (const parent of CYCLONE_FIREWORK_RULES) {
            for (const p of parent.payload ?? [])
              if (p.type === t) children += (stats.fireworks[parent.type]?.died ?? 0) * p.count;
          }
          const born = stats.fireworks[t]?.born ?? 0;
          expect(born, `type ${t}`).toBe(launchedByRate + (bursts[t] ?? 0) + children);
          total += born;
        }
        expect(stats.emitted).toBe(total);
        // Children of children: type 1's 5s burst into 3s; 7 into 8s.
        expect(stats.fireworks[5]?.died).toBeGreaterThan(0);
        expect(stats.fireworks[3]?.born).toBeGreaterThan((stats.fireworks[1]?.died ?? 0) * 5);
        expect(stats.fireworks[8]?.born).toBeGreaterThanOrEqual((stats.fireworks[7]?.died ?? 0) * 10);
        expect(stats.killed).toBe(CYCLONE_FIREWORK_RULES.reduce((n, r) => n + (stats.fireworks[r.type]?.died ?? 0), 0));
      } finally {
        rig.destroy();
      }
    },
  );

  it('payloads larger than the free space: the children that fit are born, counted by type as on the CPU', async () => {
    // Four rockets of type 1 die together (an exact fuse: dt is a power of two), each asking for 20 children
    // of type 2 then 10 of type 3; 64 slots hold 64 of those 120, so a parent's run of type 2 (or 3) is cut
    // part way. The emission counts its births once a run of one rule (shaders/lifecycle/emit.wgsl): only the served.
    const options: RigOptions = {
      capacity: 64,
      emitters: [{ firework: 1, burst: 4, rate: 0, shape: { type: 'sphere', radius: 1 } }],
      fireworks: [
        {
          type: 1,
          fuse: [0.25, 0.25],
          velocity: { min: [0, 1, 0], max: [0, 1, 0] },
          floor: NO_FLOOR,
          payload: [
            { type: 2, count: 20 },
            { type: 3, count: 10 },
          ],
        },
        { type: 2, fuse: [10, 10], velocity: { min: [-1, 0, -1], max: [1, 1, 1] }, floor: NO_FLOOR },
        { type: 3, fuse: [10, 10], velocity: { min: [-1, 0, -1], max: [1, 1, 1] }, floor: NO_FLOOR },
      ],
    };
    const born = async (rig: LifeRig) => {
      await rig.stepMany(DT, 20);
      const { stats } = await rig.readLifecycle();
      return {
        live: stats.live,
        emitted: stats.emitted,
        shortfall: stats.shortfall,
        byType: [1, 2, 3].map((t) => stats.fireworks[t]?.born ?? 0),
      };
    };
    const gpuSystem = await gpuRig(gpu.get().device, options);
    const cpuSystem = cpuRig(options);
    try {
      const cpu = await born(cpuSystem);
      // The rockets, then the 64 children that fit: the first parent's 30, the second's 30, 4 of the third's 20.
      expect(cpu).toEqual({ live: 64, emitted: 68, shortfall: 56, byType: [4, 44, 20] });
      expect(await born(gpuSystem)).toEqual(cpu);
    } finally {
      gpuSystem.destroy();
      cpuSystem.destroy();
    }
  });

  it('a child starts at its parent’s death position and inherits its velocity', async () => {
    // One rule 7 rocket (no floor, exact fuse), whose 10 children have no velocity of their own.
    const rig = cpuRig({
      capacity: 64,
      emitters: [{ firework: 7, burst: 1, shape: { type: 'point', center: [1, 2, 3] } }],
      fireworks: [
        {
          type: 7,
          fuse: 0.5,
          velocity: { min: [0, 10, 0], max: [0, 10, 0] },
          damping: 1,
          floor: null,
          payload: [{ type: 8, count: 10 }],
        },
        { type: 8, fuse: 10, floor: null },
      ],
    });
    rig.step(DT);
    const rocket = (await rig.readLifecycle()).live[0] as number;
    let parent: Float32Array = rig.state.slice(rocket * 16, rocket * 16 + 8);
    let born = 0;
    for (let s = 0; s < 60 && born === 0; s++) {
      parent = rig.state.slice(rocket * 16, rocket * 16 + 8);
      rig.step(DT);
      born = rig.lifecycle.stats().fireworks[8]?.born ?? 0;
    }
    expect(born).toBe(10);
    const { live } = await rig.readLifecycle();
    expect(live.length).toBe(10);
    for (const slot of live) {
      const child = rig.state.slice(slot * 16, slot * 16 + 8);
      // The parent's state after its last step: the step integrated it, then it died and parked.
      expect(child[0]).toBe(1);
      expect(child[1]).toBe(Math.fround(parent[1]! + Math.fround(parent[5]! * DT32)));
      expect(child[5]).toBe(Math.fround(parent[5]! + Math.fround(Math.fround(-9.81) * DT32)));
    }
  });
});

describe('the floor, looked up by rule or written in when every rule shares it', () => {
  /**
   * Three emitters at rest at y = 0 (no velocity, no acceleration: every
   * position is exactly 0, so both backends judge y < floor alike): a particle
   * dies on its first step where its rule's floor is above 0. With the floors
   * different, each particle's rule is looked up (shaders/lifecycle/lifeDeath.wgsl); with
   * one floor for all, the kernels have it written in (SHARED_FLOOR).
   */
  const still = (floor: number | null): EmitterInit => ({
    rate: 0,
    burst: 10,
    lifetime: [8, 8],
    shape: { type: 'point', center: [0, 0, 0] },
    velocity: { min: [0, 0, 0], max: [0, 0, 0] },
    floor,
  });
  it('a particle falling through its floor dies in the step that takes it below, as on the CPU', async () => {
    // Born at y = 0.5 moving down at exactly 1 unit/s, no acceleration, damping 1: every position is
    // 0.5 - k / 64, exact in float32, so both backends see the same crossing, in step 33 after its birth.
    // The fused ageing judges the floor on the position the step has just written (shaders/step/liveAge.wgsl).
    const falling: EmitterInit = {
      rate: 0,
      burst: 5,
      lifetime: [8, 8],
      shape: { type: 'point', center: [0, 0.5, 0] },
      velocity: { min: [0, -1, 0], max: [0, -1, 0] },
      damping: 1,
      acceleration: [0, 0, 0],
      floor: 0,
    };
    const options: RigOptions = { capacity: 16, emitters: [falling] };
    const system = await gpuRig(gpu.get().device, options);
    const reference = cpuRig(options);
    try {
      const lives: number[] = [];
      for (let frame = 0; frame < 40; frame++) {
        await system.stepMany(DT, 1);
        reference.step(DT);
        const [view, expected] = await Promise.all([system.readLifecycle(), reference.readLifecycle()]);
        expect(view.live, `frame ${frame}`).toEqual(expected.live);
        lives.push(view.live.length);
      }
      // Born in frame 0, stepped from frame 1 on: below 0 after 33 steps, in frame 33.
      expect(lives.indexOf(0)).toBe(33);
    } finally {
      system.destroy();
      reference.destroy();
    }
  });

  it.each([
    ['different floors: each rule’s own', [1, -1, null], null, 20],
    ['one floor above them all, shared', [1, 1, 1], 1, 0],
    ['one floor below them all, shared', [-1, -1, -1], -1, 30],
    ['no floor at all (NO_FLOOR), shared', [null, null, null], NO_FLOOR, 30],
  ] as const)('%s: the same deaths and lists as the CPU reference', async (_, floors, shared, live) => {
    const options: RigOptions = { capacity: 64, emitters: floors.map(still) };
    const system = await gpuRig(gpu.get().device, options);
    const reference = cpuRig(options);
    try {
      expect(system.system.lifecycle!.buffers.lifecycle.rules.sharedFloor).toBe(shared);
      // Born in the first step, judged in the second and third.
      for (let frame = 0; frame < 3; frame++) {
        await system.stepMany(DT, 1);
        reference.step(DT);
      }
      const [view, expected] = await Promise.all([system.readLifecycle(), reference.readLifecycle()]);
      expect(view.live.length).toBe(live);
      expect(view.live).toEqual(expected.live);
      expect(view.free).toEqual(expected.free);
      expect(view.stats).toEqual(expected.stats);
    } finally {
      system.destroy();
      reference.destroy();
    }
  });
});
