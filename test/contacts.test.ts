/**
 * Links and particle-particle contacts on the GPU (shaders/collisions/contacts.wgsl and
 * the grid): Newton's cradle passes momentum along, a rod keeps its length
 * and a cable never exceeds its own, particle collisions conserve momentum
 * within the rounding the twin audits, the grid finds exactly the pairs a
 * brute-force check finds (and sorts them as the twin does), a particle
 * whose candidates overflow its list walks the grid to the same bits as the
 * twin (its lists, counts and corrections, with links and without), a
 * particle a collider kills or sticks mid-iterations is seen as the twin sees
 * it (the count's position copy equal to the records), runs are
 * deterministic, and bad links are refused with the state unchanged.
 * Each tolerance is derived next to its test.
 */
import { describe, expect, it } from 'vitest';
import type { ParticleSystemApi } from '../src/core/api';
import { MAX_LISTED, MODE_COUNT, MODE_LIST, MODE_RESOLVE } from '../src/core/collisions/contacts';
import { noLinks, prepareLinks, type LinkInit } from '../src/core/collisions/links';
import { CpuCollisionWorld, RadiusBound, largestRadius, resolveContactSettings } from '../src/core/collisions/world';
import { CpuParticleSystem } from '../src/core/cpuParticleSystem';
import { SparkworksInputError } from '../src/core/errors';
import { OFFSET, FLOATS_PER_PARTICLE, attributeOffset } from '../src/core/layout';
import { packParticles, type ParticleInit } from '../src/core/particles';
import { DEFAULT_WORKGROUP_SIZE, ParticleSystem } from '../src/gpu/particleSystem';
import { GridPass } from '../src/gpu/collisions/gridPass';
import { gridSpacing } from '../src/core/collisions/grid';
import { ContactPass, staleWordIndex, type ContactModeName, type ContactStep } from '../src/gpu/collisions/contactPass';
import { readBuffer as readFloats } from '../src/bench/soaPass';
import { UNIT_ROUNDOFF } from './support/errorBound';
import { useDevice } from './support/gpu';
import { expectRefusedUnchanged } from './support/refusal';
import { seededRandom } from './support/random';
import { LARGE } from './support/tiers';

const gpu = useDevice();
const u = UNIT_ROUNDOFF;
const { POSITION, VELOCITY, INVERSE_MASS } = OFFSET;
// A particle out of the grid has no entry in the resolver's position copy (shaders/collisions/positionCopy.wgsl).
const NO_ENTRY = 0xffffffff;

const at = (state: Float32Array, i: number, offset: number) =>
  Array.from(state.subarray(i * FLOATS_PER_PARTICLE + offset, i * FLOATS_PER_PARTICLE + offset + 3));
const distance = (a: number[], b: number[]) => Math.hypot(...a.map((x, c) => x - (b[c] as number)));
const l1 = (a: number[]) => a.reduce((s, x) => s + Math.abs(x), 0);

/**
 * Balls of 0.05 m: half in a cube of `side` metres around the origin (crowded
 * past the candidate lists' room for a side well under 1 m), half spread over
 * 6 m around (4, 4, 4).
 */
function crowd(count: number, seed: number, side: number): ParticleInit[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const inCrowd = i < count / 2;
    const position = [0, 1, 2].map(() => (random() - 0.5) * (inCrowd ? side : 6) + (inCrowd ? 0 : 4));
    return { position, velocity: position.map(() => random() - 0.5), mass: 0.5 + random(), radius: 0.05 };
  });
}

/**
 * One step of the GPU system and of the twin from the GPU's state, and the
 * states before and after. With `compare` (by default on SwiftShader, which
 * rounds the step as the twin does: checked in the overflow test) the two
 * must agree bit for bit.
 */
async function stepAgainstTwin(
  system: ParticleSystem,
  twin: CpuParticleSystem,
  what: string,
  compare = gpu.get().adapterInfo.software,
): Promise<{ before: Float32Array; after: Float32Array }> {
  const before = await system.readPacked();
  twin.state.set(before);
  twin.step(1 / 60);
  await system.step(1 / 60);
  const after = await system.readPacked();
  if (compare)
    expect(
      Buffer.from(after.buffer).equals(Buffer.from(twin.state.buffer, twin.state.byteOffset, after.byteLength)),
      what,
    ).toBe(true);
  return { before, after };
}

/** The first `bytes` of a GPU buffer, copied back as words (src/bench's readBuffer). */
async function readBuffer(device: GPUDevice, buffer: GPUBuffer, bytes: number): Promise<Uint32Array> {
  return new Uint32Array((await readFloats(device, buffer, bytes)).buffer);
}

/** One list probe (no resolve) of the first `count` particles: what each found and listed, and the buffers. */
async function probeLists(device: GPUDevice, system: ParticleSystem, count: number) {
  const passes = system.collisionPasses!;
  const encoder = device.createCommandEncoder();
  const contacts = passes.encodeProbe(encoder, 'list', 1 / 60, count);
  device.queue.submit([encoder.finish()]);
  const found = await readBuffer(device, contacts.active, count * 4);
  const listed = await readBuffer(device, contacts.deltas, count * 32);
  return { passes, contacts, found, listed };
}

/**
 * Link lengths are checked to 16u (|pA|1 + |pB|1 + L). Derivation: moving
 * both ends along the link's unit direction by a total of the penetration
 * leaves them exactly L apart in exact arithmetic (the move is collinear). In
 * float32 the direction d / |d| is off by the rounding of sqrt and of the
 * division (within 9u + 5u relative on the GPU), the penetration by 2u L, and
 * each end's new coordinates by one rounding each (u |p| per axis): the
 * length misses L by at most about (2 + 14 x |penetration| / L) u L +
 * u (|pA|1 + |pB|1), and the later iterations start from there. 16u of the
 * sum covers it with the penetration of a step (|v| dt) far below L.
 */
const linkTolerance = (pA: number[], pB: number[], length: number) => 16 * u * (l1(pA) + l1(pB) + length);

describe("Newton's cradle", () => {
  it.each([
    ['GPU', async (options: object) => ParticleSystem.create(gpu.get().device, options as never)],
    ['CPU twin', async (options: object) => new CpuParticleSystem(options as never)],
  ])('%s: five touching balls pass the first one’s momentum to the last in one step', async (_, make) => {
    const system: ParticleSystemApi = await make({
      capacity: 5,
      collisions: { particleCollisions: true, restitution: 1, iterations: 8 },
    });
    const v0 = 1;
    await system.writeParticles(
      0,
      [0, 1, 2, 3, 4].map((x) => ({ position: [x, 0, 0], velocity: [x === 0 ? v0 : 0, 0, 0], radius: 0.5, mass: 2 })),
    );
    // One step of dt = 1/64 presses ball 0 into ball 1; each Jacobi iteration
    // passes the impulse one contact further (a contact is closing only once
    // its neighbour has moved), so 4 of the 8 iterations carry it to ball 4.
    await system.step(1 / 64);
    const state = await system.readPacked();
    // Each transfer is an exchange of velocities between equal masses: exact up
    // to the normal's rounding (the sqrt and the division: 14u relative on the
    // GPU) applied twice (the impulse and its direction) and the three
    // roundings of the impulse: within 64u of v0 a transfer, four transfers.
    const tolerance = 4 * 64 * u * v0;
    for (let i = 0; i < 4; i++)
      expect(Math.hypot(...at(state, i, VELOCITY)), `ball ${i}`).toBeLessThanOrEqual(tolerance);
    const last = at(state, 4, VELOCITY);
    expect(Math.abs((last[0] as number) - v0)).toBeLessThanOrEqual(tolerance);
    // Then ball 4 leaves and the row stays: momentum passed along, none made.
    await system.stepMany(1 / 64, 20);
    const later = await system.readPacked();
    for (let i = 0; i < 4; i++) expect(Math.hypot(...at(later, i, VELOCITY))).toBeLessThanOrEqual(tolerance);
    expect(Math.abs((at(later, 4, VELOCITY)[0] as number) - v0)).toBeLessThanOrEqual(tolerance);
    expect(at(later, 4, POSITION)[0]).toBeGreaterThan(4 + (20 * v0) / 64 - 0.01);
    system.destroy();
  });
});

describe('links', () => {
  it('a rod keeps its length: an anchored pendulum and a spinning, falling dumbbell, 600 steps', LARGE, async () => {
    const links: LinkInit[] = [
      { type: 'rod', a: 0, anchor: [0, 10, 0], length: 1.5 },
      { type: 'rod', a: 1, b: 2, length: 2 },
    ];
    const system = await ParticleSystem.create(gpu.get().device, { capacity: 3, collisions: { links } });
    await system.writeParticles(0, [
      { position: [1.5, 10, 0], velocity: [0, 0, 2], acceleration: [0, -9.81, 0] },
      { position: [-1, 5, 0], velocity: [0, 3, 1], acceleration: [0, -9.81, 0], mass: 1 },
      { position: [1, 5, 0], velocity: [0, -3, 0], acceleration: [0, -9.81, 0], mass: 3 },
    ]);
    for (let step = 1; step <= 600; step++) {
      await system.step(1 / 120);
      const state = await system.readPacked();
      const pendulum = at(state, 0, POSITION);
      const [a, b] = [at(state, 1, POSITION), at(state, 2, POSITION)];
      expect(Math.abs(distance(pendulum, [0, 10, 0]) - 1.5), `pendulum, step ${step}`).toBeLessThanOrEqual(
        linkTolerance(pendulum, [0, 10, 0], 1.5),
      );
      expect(Math.abs(distance(a, b) - 2), `dumbbell, step ${step}`).toBeLessThanOrEqual(linkTolerance(a, b, 2));
    }
    system.destroy();
  });

  it(
    'a cable never exceeds its length: a mass dropped on a slack cable, and two particles flying apart, 600 steps',
    LARGE,
    async () => {
      const links: LinkInit[] = [
        { type: 'cable', a: 0, anchor: [0, 10, 0], maxLength: 3, restitution: 0.3 },
        { type: 'cable', a: 1, b: 2, maxLength: 1, restitution: 0.5 },
      ];
      const system = await ParticleSystem.create(gpu.get().device, { capacity: 3, collisions: { links } });
      await system.writeParticles(0, [
        { position: [1, 10.5, 0], velocity: [2, 0, 0], acceleration: [0, -9.81, 0] },
        { position: [0, 0, 0], velocity: [-4, 1, 0] },
        { position: [0.5, 0, 0], velocity: [5, 0, 0.5], mass: 4 },
      ]);
      let tautest = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
      for (let step = 1; step <= 600; step++) {
        await system.step(1 / 120);
        const state = await system.readPacked();
        const hanging = at(state, 0, POSITION);
        const [a, b] = [at(state, 1, POSITION), at(state, 2, POSITION)];
        const lengths = [distance(hanging, [0, 10, 0]), distance(a, b)];
        expect(lengths[0]! - 3, `anchored cable, step ${step}`).toBeLessThanOrEqual(
          linkTolerance(hanging, [0, 10, 0], 3),
        );
        expect(lengths[1]! - 1, `cable between particles, step ${step}`).toBeLessThanOrEqual(linkTolerance(a, b, 1));
        tautest = tautest.map((x, k) => Math.min(x, [3, 1][k]! - lengths[k]!));
      }
      // Both cables did go taut (the test exercised them).
      expect(tautest[0]).toBeLessThan(1e-4);
      expect(tautest[1]).toBeLessThan(1e-4);
      system.destroy();
    },
  );

  it.each([
    [
      'a missing second end',
      [{ type: 'rod', a: 0, length: 1 }],
      /links\[0\]\.b = nothing .*second particle b or an anchor/,
    ],
    [
      'both b and an anchor',
      [{ type: 'rod', a: 0, b: 1, anchor: [0, 0, 0], length: 1 }],
      /links\[0\]\.anchor = .*not both/,
    ],
    [
      'a particle past the capacity',
      [{ type: 'cable', a: 0, b: 4, maxLength: 1 }],
      /links\[0\]\.b = 4 .*\[0, 3\].*capacity is 4/,
    ],
    ['a link to itself', [{ type: 'rod', a: 2, b: 2, length: 1 }], /links\[0\]\.b = 2 .*must differ from a/],
    ['a fractional index', [{ type: 'rod', a: 0.5, b: 1, length: 1 }], /links\[0\]\.a = 0\.5 .*integer/],
    ['a rod of length 0', [{ type: 'rod', a: 0, b: 1, length: 0 }], /links\[0\]\.length = 0 .*> 0/],
    ['a cable with no maxLength', [{ type: 'cable', a: 0, b: 1 }], /links\[0\]\.maxLength = nothing/],
    [
      'a cable with restitution 2',
      [{ type: 'cable', a: 0, b: 1, maxLength: 1, restitution: 2 }],
      /links\[0\]\.restitution = 2 .*\[0, 1\]/,
    ],
    [
      'restitution on a rod',
      [{ type: 'rod', a: 0, b: 1, length: 1, restitution: 0.5 }],
      /links\[0\]\.restitution = 0\.5 .*unknown field/,
    ],
    ['an unknown type', [{ type: 'spring', a: 0, b: 1 }], /links\[0\]\.type = "spring" .*cable, rod/],
    [
      'an anchor of NaN',
      [{ type: 'cable', a: 0, anchor: [0, Number.NaN, 0], maxLength: 1 }],
      /links\[0\]\.anchor\[1\] = NaN/,
    ],
  ] as [string, unknown[], RegExp][])(
    'refuses %s, naming the value and the limit, with nothing changed',
    async (_, links, message) => {
      const good: LinkInit[] = [{ type: 'rod', a: 0, b: 1, length: 1 }];
      const particles: ParticleInit[] = [0, 1, 2, 3].map((x) => ({ position: [x, 0, 0], velocity: [0, x, 0] }));
      await expectRefusedUnchanged(
        gpu.get().device,
        { options: { capacity: 4, collisions: { links: good } }, particles },
        (system) => system.setLinks(links as LinkInit[]),
        message,
        { dt: 0.01, steps: 10 },
      );
    },
  );
});

/** A cloud of balls thrown towards its centre, no gravity: many collisions, no outside force. */
function converging(count: number, seed: number, radius: () => number): ParticleInit[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const position = [0, 1, 2].map(() => (random() * 2 - 1) * 1.2);
    return {
      position,
      velocity: position.map((x) => -2 * x + (random() * 2 - 1)),
      mass: 0.5 + random() * 1.5,
      radius: radius(),
    };
  });
}

describe('particle-particle collisions', () => {
  it('conserve momentum within the rounding the twin audits, step by step', async () => {
    const count = 400;
    const particles = converging(count, 8, () => 0.1);
    const options = { capacity: count, collisions: { particleCollisions: true, restitution: 0.8, iterations: 8 } };
    const system = await ParticleSystem.create(gpu.get().device, options);
    const twin = new CpuParticleSystem(options);
    await system.writeParticles(0, particles);
    twin.writeParticles(0, particles);
    const momentum = (state: Float32Array) => {
      const p = [0, 0, 0];
      let scale = 0;
      for (let i = 0; i < count; i++) {
        const mass = 1 / (state[i * FLOATS_PER_PARTICLE + INVERSE_MASS] as number);
        at(state, i, VELOCITY).forEach((v, c) => {
          p[c] = (p[c] as number) + mass * v;
          scale += mass * Math.abs(v);
        });
      }
      return { p, scale };
    };
    let collided = 0;
    for (let step = 1; step <= 30; step++) {
      // Both start the step from the GPU's state; the twin, run with its audit
      // on, adds up what float32 rounding may do to the momentum (see
      // CpuContacts.audit: each impulse term, the sum of a particle's terms,
      // and adding that sum to its velocity; the exact terms cancel between the
      // two particles of a contact, since m_A w_A = m_B w_B = 1). The GPU runs
      // the same operations on the same values (bit for bit here; on other
      // adapters within their float32 bound, hence the 2^-10 relative slack);
      // a fused multiply-add only skips one of the roundings counted.
      const before = await system.readPacked();
      twin.state.set(before);
      const audit = new Float64Array(3);
      twin.collisions.contacts.audit = audit;
      twin.step(1 / 60);
      await system.step(1 / 60);
      const after = await system.readPacked();
      const [p0, p1] = [momentum(before), momentum(after)];
      // The float64 sums here add at most 2^-50 of the total |m v| each.
      const sums = 2 * 2 ** -50 * (p0.scale + p1.scale);
      for (let c = 0; c < 3; c++) {
        const change = Math.abs((p1.p[c] as number) - (p0.p[c] as number));
        expect(change, `axis ${c}, step ${step}: budget ${audit[c]}`).toBeLessThanOrEqual(
          (audit[c] as number) * (1 + 2 ** -10) + sums,
        );
      }
      for (let i = 0; i < count; i++) {
        if (at(before, i, VELOCITY).some((v, c) => v !== at(after, i, VELOCITY)[c])) collided++;
      }
    }
    // The scene does collide: hundreds of velocity changes over the 30 steps.
    expect(collided).toBeGreaterThan(1000);
    system.destroy();
  });

  it('the grid finds exactly the pairs a brute-force check finds, and sorts them as the twin does', async () => {
    const { device } = gpu.get();
    const random = seededRandom(17);
    const count = 3000;
    // Radii from 0.01 to 0.06, mostly in a 2.4 m cube, a tenth in a denser
    // core, a few far away (1e3 m, many cells out, to meet the hash's collisions).
    const particles = converging(count, 23, () => 0.01 + random() * 0.05).map((p, i) => {
      const position = Array.from(p.position);
      if (i % 10 === 0) return { ...p, position: position.map((x) => x * 0.4) };
      if (i % 97 === 0) return { ...p, position: position.map((x) => x * 1000) };
      return p;
    });
    const skin = 0;
    const system = await ParticleSystem.create(device, {
      capacity: count,
      collisions: { particleCollisions: true, skin },
    });
    await system.writeParticles(0, particles);
    const { passes, found, listed } = await probeLists(device, system, count);
    const grid = passes.grid!;
    const starts = await readBuffer(device, grid.starts, (grid.buckets + 1) * 4);
    const entries = await readBuffer(device, grid.entries, count * 4);

    // Brute force in float64 over the float32 positions: a pair is in contact
    // when its distance is below the sum of the radii. A pair within float32
    // rounding of that threshold could go either way on the GPU (|p| rounded
    // at u|p| per axis, the distance's sqrt and sums within 16u of the
    // coordinates' size): the scene must have none, and has none.
    const state = packParticles(particles);
    const pos = (i: number) => at(state, i, POSITION);
    const rad = (i: number) => state[i * FLOATS_PER_PARTICLE + attributeOffset('radius')] as number;
    const brute: number[][] = Array.from({ length: count }, () => []);
    let ambiguous = 0;
    let pairs = 0;
    for (let i = 0; i < count; i++) {
      for (let j = i + 1; j < count; j++) {
        const d = distance(pos(i), pos(j));
        const reach = rad(i) + rad(j);
        if (d > reach + 1) continue;
        if (Math.abs(d - reach) <= 16 * u * (l1(pos(i)) + l1(pos(j)) + reach)) ambiguous++;
        if (d < reach) {
          brute[i]!.push(j);
          brute[j]!.push(i);
          pairs++;
        }
      }
    }
    expect(ambiguous).toBe(0);
    expect(pairs).toBeGreaterThan(500); // a real test: many contacts
    for (let i = 0; i < count; i++) {
      const n = found[i] as number;
      expect(n, `particle ${i}: neighbours found`).toBe(brute[i]!.length);
      expect(n).toBeLessThanOrEqual(MAX_LISTED); // so the whole list came back
      const gpuList = Array.from(listed.subarray(i * MAX_LISTED, i * MAX_LISTED + n));
      expect(
        [...gpuList].sort((a, b) => a - b),
        `particle ${i}: neighbours`,
      ).toEqual([...brute[i]!].sort((a, b) => a - b));
    }

    // The twin builds the same table (counts, scan, order within each bucket by
    // index) and visits the neighbours in the same order: identical lists.
    const radius = new RadiusBound();
    radius.note(largestRadius(state));
    const world = new CpuCollisionWorld(
      count,
      resolveContactSettings({ particleCollisions: true, skin }),
      radius,
      false,
    );
    const twinGrid = world.buildGrid(state, count, Math.fround);
    expect(Array.from(starts)).toEqual(Array.from(twinGrid.starts));
    expect(Array.from(entries)).toEqual(Array.from(twinGrid.entries));
    world.contacts.run(MODE_LIST, state, count, world.links, twinGrid, world.contactParams(1 / 60), Math.fround);
    expect(Array.from(found)).toEqual(Array.from(world.contacts.active.subarray(0, count)));
    expect(Array.from(listed)).toEqual(Array.from(world.contacts.listed));
    system.destroy();
  });

  it('builds the same grid as the twin with a scan of many chunks', async () => {
    // 70,000 slots: 131,072 buckets, so the scan's chunk totals (513 of them, the last holding one count) take
    // three rounds of its carry.
    const { device } = gpu.get();
    const random = seededRandom(29);
    const count = 70_000;
    const particles: ParticleInit[] = Array.from({ length: count }, (_, i) => ({
      position: [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2].map((x) => (i % 7 === 0 ? x * 0.1 : x)) as [
        number,
        number,
        number,
      ],
      radius: 0.005 + random() * 0.01,
      inverseMass: 1,
    }));
    const system = await ParticleSystem.create(device, { capacity: count, collisions: { particleCollisions: true } });
    await system.writeParticles(0, particles);
    const state = packParticles(particles);
    const radius = new RadiusBound();
    radius.note(largestRadius(state));
    const world = new CpuCollisionWorld(count, resolveContactSettings({ particleCollisions: true }), radius, false);
    const twin = world.buildGrid(state, count, Math.fround);
    const inverseCellSize = gridSpacing(radius.value, Math.fround(resolveContactSettings({}).skin)).inverseCellSize;
    const grid = GridPass.create(device, system.particles, 256);
    try {
      const encoder = device.createCommandEncoder();
      grid.encode(encoder, count, inverseCellSize);
      device.queue.submit([encoder.finish()]);
      const starts = await readBuffer(device, grid.starts, (grid.buckets + 1) * 4);
      const entries = await readBuffer(device, grid.entries, count * 4);
      expect(grid.buckets).toBe(131_072);
      expect(Array.from(starts), 'starts').toEqual(Array.from(twin.starts));
      expect(Array.from(entries), 'entries').toEqual(Array.from(twin.entries));
    } finally {
      grid.destroy();
    }
    system.destroy();
  });

  it('walks the grid for a particle whose candidates overflow its list: the same pairs, in the same order, as the twin', async () => {
    const { device } = gpu.get();
    const count = 600;
    // Half in a 0.6 m cube of 0.1 m cells (about 75 candidates each, past any
    // list), half spread over 6 m (a few candidates each, within their lists).
    const particles = crowd(count, 29, 0.6);
    const options = { capacity: count, collisions: { particleCollisions: true, iterations: 4 } };
    const system = await ParticleSystem.create(device, options);
    await system.writeParticles(0, particles);
    const { contacts, found, listed } = await probeLists(device, system, count);
    const candidates = (await readBuffer(device, contacts.active, count * 8)).subarray(count);
    const overflowing = candidates.filter((n) => n > contacts.candidates).length;
    expect(overflowing).toBeGreaterThan(100);
    expect(candidates.filter((n) => n > 0 && n <= contacts.candidates).length).toBeGreaterThan(100);

    const state = packParticles(particles);
    const radius = new RadiusBound();
    radius.note(largestRadius(state));
    const world = new CpuCollisionWorld(count, resolveContactSettings(options.collisions), radius, false);
    const twinGrid = world.buildGrid(state, count, Math.fround);
    world.contacts.run(MODE_LIST, state, count, world.links, twinGrid, world.contactParams(1 / 60), Math.fround);
    expect(Array.from(found)).toEqual(Array.from(world.contacts.active.subarray(0, count)));
    expect(Array.from(listed)).toEqual(Array.from(world.contacts.listed));

    // Steps from the same state: the same bits on both backends, where the adapter rounds the
    // plain step as the twin does (SwiftShader does; a GPU that fuses multiply-adds may not, and
    // there the pairs and their order, checked above, are what must agree).
    const plain = await ParticleSystem.create(device, { capacity: count });
    const plainTwin = new CpuParticleSystem({ capacity: count });
    await plain.writeParticles(0, particles);
    plainTwin.writeParticles(0, particles);
    await plain.step(1 / 60);
    plainTwin.step(1 / 60);
    const plainState = await plain.readPacked();
    plain.destroy();
    const roundsAsTwin = Buffer.from(plainState.buffer).equals(
      Buffer.from(plainTwin.state.buffer, plainTwin.state.byteOffset, plainState.byteLength),
    );
    if (gpu.get().adapterInfo.software) expect(roundsAsTwin, 'SwiftShader rounds the step as the twin').toBe(true);
    const twin = new CpuParticleSystem(options);
    twin.writeParticles(0, particles);
    for (let step = 1; step <= (roundsAsTwin ? 3 : 0); step++)
      await stepAgainstTwin(system, twin, `step ${step}`, true);
    system.destroy();
  });

  it('walks the grid for the particles whose lists overflow, with links and without: the same lists, counts and corrections as the twin', async () => {
    const { device, adapterInfo } = gpu.get();
    const count = 600;
    // A crowd like the test above's (half of it in a 0.5 m cube of 0.1 m cells,
    // about 65 candidates each, overflowing their lists), then the same
    // particles spread out (no list overflows).
    const crowded = crowd(count, 61, 0.5);
    const spread = crowded.map((p, i) => ({ ...p, position: [(i % 30) * 0.3, Math.floor(i / 30) * 0.0999, 0] }));
    // Rods among the crowd and one anchored: the links' variants walk the grid too.
    const links = prepareLinks(
      [
        { type: 'rod', a: 0, b: 1, length: 0.05 },
        { type: 'rod', a: 2, anchor: [0, 0, 0], length: 0.1 },
        { type: 'cable', a: 3, b: 250, maxLength: 0.2 },
      ],
      count,
    );
    const settings = resolveContactSettings({ particleCollisions: true });
    const radius = new RadiusBound();
    radius.note(0.05);
    const world = new CpuCollisionWorld(count, settings, radius, false);
    const params = world.contactParams(1 / 60);
    const system = await ParticleSystem.create(device, { capacity: count });
    const skin = Math.fround(settings.skin);
    const step: ContactStep = {
      count,
      dt: params.dt,
      skin,
      restitution: params.restitution,
      inverseCellSize: gridSpacing(radius.value, skin).inverseCellSize,
    };
    const grid = GridPass.create(device, system.particles, DEFAULT_WORKGROUP_SIZE);
    const pass = ContactPass.create(device, system.particles, DEFAULT_WORKGROUP_SIZE, true);
    pass.useGrid(grid);
    for (const [scene, particles] of [
      ['crowd', crowded],
      ['spread', spread],
    ] as const) {
      await system.writeParticles(0, particles);
      const state = packParticles(particles);
      const twinGrid = world.buildGrid(state, count, Math.fround);
      for (const withLinks of [false, true]) {
        const what = `${scene}, links ${withLinks}`;
        const packedLinks = withLinks ? links : noLinks(count);
        pass.setLinks(packedLinks);
        // Each mode's active words (found or counted) and corrections (listed neighbours, or vec4 bits).
        const outputs: Uint32Array[] = [];
        for (const modes of [['list'], ['count'], ['count', 'resolve']] as ContactModeName[][]) {
          const encoder = device.createCommandEncoder();
          grid.encode(encoder, count, step.inverseCellSize!);
          pass.encode(encoder, 'candidates', step);
          for (const mode of modes) pass.encode(encoder, mode, step);
          device.queue.submit([encoder.finish()]);
          outputs.push(await readBuffer(device, pass.active, 2 * count * 4));
          outputs.push(await readBuffer(device, pass.deltas, count * 32));
        }
        const [found, listed, counted, , , corrections] = outputs as [
          Uint32Array,
          Uint32Array,
          Uint32Array,
          Uint32Array,
          Uint32Array,
          Uint32Array,
        ];
        const overflowing = found.subarray(count, 2 * count).filter((n) => n > pass.candidates).length;
        if (scene === 'crowd') expect(overflowing, what).toBeGreaterThan(100);
        else expect(overflowing, what).toBe(0);

        const twin = world.contacts;
        twin.run(MODE_LIST, state, count, noLinks(count), twinGrid, params, Math.fround);
        expect(Array.from(found.subarray(0, count)), `${what}: found`).toEqual(Array.from(twin.active));
        expect(Array.from(listed), `${what}: listed`).toEqual(Array.from(twin.listed));
        twin.run(MODE_COUNT, state, count, packedLinks, twinGrid, params, Math.fround);
        expect(Array.from(counted.subarray(0, count)), `${what}: counts`).toEqual(Array.from(twin.active));
        expect(
          twin.active.some((n) => n > 0),
          what,
        ).toBe(true);
        // The corrections' xyz lanes, bit for bit where the adapter rounds as the twin does (SwiftShader does;
        // the overflow test above checks it); the w lanes are the GPU's own (the bound on the move, the entry).
        twin.run(MODE_RESOLVE, state, count, packedLinks, twinGrid, params, Math.fround);
        const twinBits = new Uint32Array(new Float32Array(twin.deltas).buffer);
        const differing = [...corrections.keys()].filter((k) => k % 4 !== 3 && corrections[k] !== twinBits[k]);
        if (adapterInfo.software) expect(differing, `${what}: corrections`).toEqual([]);
        expect(
          corrections.some((n, k) => k % 4 !== 3 && n !== 0),
          what,
        ).toBe(true);
      }
    }
    pass.destroy();
    grid.destroy();
    system.destroy();
  });

  it('keeps the near candidates across the iterations, and filters all of them again once a particle has moved past half the margin: the same bits as the twin', async () => {
    const { device } = gpu.get();
    const random = seededRandom(41);
    const count = 512;
    // Scenes without world colliders (the lists are kept): balls of 0.05 m on a
    // lattice of 0.0998 m, each into its six neighbours by 0.2 mm, slow (no
    // correction comes near the margin: the kept lists serve every iteration);
    // balls thrown into a 1 m cube, many deep into each other (the first
    // resolve moves them centimetres, past half the margin of 0.1 cell, about
    // 5 mm: the lists go stale and the later iterations filter every candidate); and a
    // crowd, half in a 0.6 m cube (near lists past their room, lists
    // overflowing), half spread over 6 m.
    const lattice = (i: number) => [i % 8, Math.floor(i / 8) % 8, Math.floor(i / 64)].map((k) => k * 0.0998);
    const scenes = [
      { name: 'lattice', position: lattice, speed: 0.02, stale: false },
      { name: 'pile', position: () => [0, 1, 2].map(() => random() - 0.5), speed: 1, stale: true },
      {
        name: 'crowd',
        position: (i: number) =>
          [0, 1, 2].map(() => (i < count / 2 ? (random() - 0.5) * 0.6 : (random() - 0.5) * 6 + 4)),
        speed: 1,
        stale: true,
      },
    ];
    for (const { name, position, speed, stale } of scenes) {
      const particles: ParticleInit[] = Array.from({ length: count }, (_, i) => ({
        position: position(i),
        velocity: [0, 1, 2].map(() => (random() - 0.5) * speed),
        mass: 0.5 + random(),
        radius: 0.05,
      }));
      const options = { capacity: count, collisions: { particleCollisions: true, iterations: 8 } };
      const system = await ParticleSystem.create(device, options);
      await system.writeParticles(0, particles);
      const twin = new CpuParticleSystem(options);
      twin.writeParticles(0, particles);
      const probe = device.createCommandEncoder();
      const contacts = system.collisionPasses!.encodeProbe(probe, 'list', 1 / 60, count);
      device.queue.submit([probe.finish()]);
      const staleWord = staleWordIndex(count, contacts.candidates);
      let collided = 0;
      for (let step = 1; step <= 3; step++) {
        const { before, after: gpuState } = await stepAgainstTwin(system, twin, `${name}, step ${step}`);
        const word = (await readBuffer(device, contacts.active, (staleWord + 1) * 4))[staleWord];
        // Stale from some iteration's resolve on (the word holds its index) where
        // particles move far; never among the barely touching balls.
        if (stale) expect(word, `${name}, step ${step}`).toBeLessThan(8);
        else expect(word, `${name}, step ${step}`).toBe(0xffffffff);
        for (let i = 0; i < count; i++)
          if (at(before, i, VELOCITY).some((v, c) => v !== at(gpuState, i, VELOCITY)[c])) collided++;
      }
      expect(collided, `${name}`).toBeGreaterThan(0);
      system.destroy();
    }
  });

  it('sees a particle a collider kills or sticks during the iterations as the twin does: the same bits', async () => {
    const { device } = gpu.get();
    const random = seededRandom(53);
    const count = 400;
    // Balls of 0.05 m packed into a 0.5 m cube (many overlapping by
    // centimetres) whose lower part reaches through a floor that kills and a
    // wall that sticks: each iteration's apply pass kills or sticks some of
    // them while their neighbours still press on them, so the later counts
    // (which read the resolver's position copy) must see them dead (radius -1)
    // or at rest, as the twin's records say.
    const particles: ParticleInit[] = Array.from({ length: count }, () => ({
      position: [(random() - 0.5) * 0.5, (random() - 0.5) * 0.5, (random() - 0.5) * 0.5],
      velocity: [-2 - random(), (random() - 0.5) * 2, (random() - 0.5) * 2],
      mass: 0.5 + random(),
      radius: 0.05,
    }));
    const options = {
      capacity: count,
      collisions: {
        particleCollisions: true,
        iterations: 8,
        colliders: [
          {
            type: 'plane' as const,
            normal: [0, 1, 0] as [number, number, number],
            offset: -0.15,
            onHit: 'die' as const,
          },
          {
            type: 'plane' as const,
            normal: [1, 0, 0] as [number, number, number],
            offset: -0.15,
            onHit: 'stick' as const,
          },
        ],
      },
    };
    const system = await ParticleSystem.create(device, options);
    await system.writeParticles(0, particles);
    const twin = new CpuParticleSystem(options);
    twin.writeParticles(0, particles);
    const { RADIUS } = OFFSET;
    let killed = 0;
    let stuck = 0;
    for (let step = 1; step <= 3; step++) {
      const { after: gpuState } = await stepAgainstTwin(system, twin, `step ${step}`);
      // The resolver's position copy, as the last apply pass left it, holds what the records hold: at each
      // particle's grid entry (its velocity change's w lane), its position, radius, velocity and inverse
      // mass, the killed and the stuck ones' included. A particle out of the grid (dead when the step began)
      // has none, and no two particles share an entry.
      const contacts = system.collisionPasses!.contacts!;
      const deltas = await readBuffer(device, contacts.deltas, (contacts.positionCopy + 2 * count) * 16);
      const words = new Uint32Array(deltas.buffer, deltas.byteOffset, deltas.byteLength / 4);
      const copyWords = words.subarray(contacts.positionCopy * 4);
      const fromRecords = new Float32Array(8);
      const recordWords = new Uint32Array(fromRecords.buffer);
      const seen = new Set<number>();
      let mismatches = 0;
      for (let i = 0; i < count; i++) {
        const entry = words[i * 8 + 7]!;
        if (entry === NO_ENTRY) {
          expect(
            gpuState[i * FLOATS_PER_PARTICLE + RADIUS],
            `step ${step}: particle ${i} out of the grid`,
          ).toBeLessThan(0);
          continue;
        }
        expect(seen.has(entry), `step ${step}: entry ${entry} twice`).toBe(false);
        seen.add(entry);
        fromRecords.set([...at(gpuState, i, POSITION), gpuState[i * FLOATS_PER_PARTICLE + RADIUS]!], 0);
        fromRecords.set([...at(gpuState, i, VELOCITY), gpuState[i * FLOATS_PER_PARTICLE + INVERSE_MASS]!], 4);
        for (let lane = 0; lane < 8; lane++) if (copyWords[entry * 8 + lane] !== recordWords[lane]) mismatches++;
      }
      expect(mismatches, `step ${step}: the position copy's lanes unlike the records'`).toBe(0);
      expect(seen.size, `step ${step}: particles in the grid`).toBeGreaterThan(count / 2);
      killed = 0;
      stuck = 0;
      for (let i = 0; i < count; i++) {
        const base = i * FLOATS_PER_PARTICLE;
        if (gpuState[base + RADIUS]! < 0) killed++;
        else if (gpuState[base + INVERSE_MASS] === 0) stuck++;
      }
    }
    // Both colliders acted (in the first step most of what they catch is inside the pile).
    expect(killed).toBeGreaterThan(20);
    expect(stuck).toBeGreaterThan(20);
    system.destroy();
  });

  it('is deterministic: the same scene run twice gives the same bits', async () => {
    const count = 500;
    const particles = converging(count, 31, () => 0.06).map((p) => ({ ...p, acceleration: [0, -9.81, 0] }));
    const options = {
      capacity: count,
      collisions: {
        particleCollisions: true,
        colliders: [
          { type: 'plane', normal: [0, 1, 0], offset: -1, restitution: 0.3, friction: 0.4 },
          { type: 'box', center: [0, 0, 0], halfExtents: [1.3, 3, 1.3], inside: true, restitution: 0.5 },
        ],
      },
    } as const;
    const runs: Float32Array[] = [];
    for (let run = 0; run < 2; run++) {
      const system = await ParticleSystem.create(gpu.get().device, options as never);
      await system.writeParticles(0, particles);
      await system.stepMany(1 / 60, 30);
      runs.push(await system.readPacked());
      system.destroy();
    }
    expect(Buffer.from(runs[0]!.buffer).equals(Buffer.from(runs[1]!.buffer))).toBe(true);
  });
});
