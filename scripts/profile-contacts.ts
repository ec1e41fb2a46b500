/**
 * `npx vite-node scripts/profile-contacts.ts [-- --sizes 16,18] [--repeats 3] [--timestamps] [--repeat 1]
 * [--live-share 1] [--cell-order]`
 *
 * Where particle contacts spend their time: each pass of a step with
 * collisions (the grid rebuild's stages, the candidate lists, and one
 * iteration's count, resolve and apply, then a later iteration's count,
 * which unlike the step's first makes no wide lists) submitted alone and timed with wall
 * time around submit and onSubmittedWorkDone (the queue drained first), right
 * after a plain step timed the same way, and quoted in ms and as a multiple of
 * that step; medians of the repeats. With `--timestamps` (where the adapter
 * has 'timestamp-query') each is the GPU's time between timestamps instead: on
 * a fast GPU a pass takes microseconds and a submission's wall time is mostly
 * the submission, while Dawn's timestamps there come in steps of about 65 us.
 * `--repeat N` records each pass (and the step) N times in its submission and
 * quotes a pass's share: the way to see a fast GPU's passes. A repeated pass
 * redoes the same work, except apply, which moves the particles again; the
 * grid's stages are then timed together, the whole rebuild repeated.
 * The scene is the bench's (src/bench/contactScene.ts). With `--live-share
 * S` below 1 it holds S of the slots' particles, at seeded random slots, and
 * the other slots are parked as a pool with emitters parks its free ones
 * (immovable, radius -1: out of the grid), every pass still sized by the
 * slots: what a pool's free slots cost each pass. `--cell-order` numbers
 * the scene's particles by their grid cell (z, then y, then x) before writing
 * them: what particle state kept in cell order would be worth, as an upper
 * bound (the library does not reorder a user's particles).
 */
import { acquireDevice } from '../src/node/device';
import { ParticleSystem } from '../src/gpu/particleSystem';
import { gridSpacing } from '../src/core/collisions/grid';
import { DEFAULT_CONTACT_SETTINGS } from '../src/core/collisions/world';
import { contactCube, CONTACT_RADIUS } from '../src/bench/contactScene';
import { GridPass, GRID_STAGES } from '../src/gpu/collisions/gridPass';
import { ContactPass, type ContactModeName, type ContactStep } from '../src/gpu/collisions/contactPass';
import { packParticles, type ParticleInit } from '../src/core/particles';
import { parkSlot } from '../src/core/emitters/lifecycle';
import { FLOATS_PER_PARTICLE } from '../src/core/layout';
import { CollidePass } from '../src/gpu/collisions/collidePass';
import { prepareColliders } from '../src/core/collisions/colliders';
import { noLinks } from '../src/core/collisions/links';
import { DEFAULT_WORKGROUP_SIZE } from '../src/gpu/particleSystem';
import { GpuTimer, timeSubmitted } from '../src/bench/timing';

const contactStages: ContactModeName[] = ['candidates', 'count', 'resolve'];

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? '') : fallback;
}
const sizes = flag('--sizes', '16,18').split(',').map(Number);
const repeats = Number(flag('--repeats', '3'));
const repeat = Number(flag('--repeat', '1'));
const liveShare = Number(flag('--live-share', '1'));
const cellOrder = process.argv.includes('--cell-order');
const DT = 1 / 60;
// Milliseconds to three figures at least: a GPU's passes take microseconds.
const msText = (ms: number) => ms.toFixed(ms < 1 ? 3 : 1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** `particles` sorted by their grid cell, z, then y, then x (--cell-order). */
function byCell(particles: ParticleInit[]): ParticleInit[] {
  const { inverseCellSize } = gridSpacing(CONTACT_RADIUS, Math.fround(DEFAULT_CONTACT_SETTINGS.skin));
  const cellOf = (particle: ParticleInit) => {
    const position = particle.position ?? [0, 0, 0];
    return [0, 1, 2].map((axis) => Math.floor((position[axis] as number) * inverseCellSize));
  };
  const keyed = particles.map((particle) => ({ particle, cell: cellOf(particle) }));
  keyed.sort((a, b) => a.cell[2]! - b.cell[2]! || a.cell[1]! - b.cell[1]! || a.cell[0]! - b.cell[0]!);
  return keyed.map(({ particle }) => particle);
}

/**
 * The scene's records over `count` slots: the cube of liveShare * count
 * particles, at seeded random slots (all of them, in order, at 1), the other
 * slots parked.
 */
function sceneRecords(count: number): Float32Array {
  const live = Math.round(liveShare * count);
  const scene = packParticles(cellOrder ? byCell(contactCube(live)) : contactCube(live));
  if (live === count) return scene;
  const slots = Array.from({ length: count }, (_, i) => i);
  let seed = 7;
  for (let i = count - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const j = Math.floor((seed / 2 ** 32) * (i + 1));
    [slots[i], slots[j]] = [slots[j] as number, slots[i] as number];
  }
  const records = new Float32Array(count * FLOATS_PER_PARTICLE);
  for (let slot = 0; slot < count; slot++) parkSlot(records, slot);
  for (let k = 0; k < live; k++) {
    const at = (slots[k] as number) * FLOATS_PER_PARTICLE;
    records.set(scene.subarray(k * FLOATS_PER_PARTICLE, (k + 1) * FLOATS_PER_PARTICLE), at);
  }
  return records;
}

const { device, adapterInfo } = await acquireDevice();

const timer = process.argv.includes('--timestamps') ? new GpuTimer(device) : null;
const time = async (record: (encoder: GPUCommandEncoder) => void) =>
  timer ? (await timer.time(record, 'profile-contacts')).ms : timeSubmitted(device, record, 'profile-contacts');

try {
  process.stdout.write(
    `adapter: ${adapterInfo.description}; timestamp-query: ${device.features.has('timestamp-query')}; ` +
      `${timer ? timer.method : 'wall time'} per pass (${repeat} a submission), median of ${repeats}; ` +
      `${liveShare} of the slots live${cellOrder ? '; particles numbered in cell order' : ''}\n`,
  );
  for (const exponent of sizes) {
    const count = 2 ** exponent;
    const plain = await ParticleSystem.create(device, { capacity: count });
    await plain.writeParticles(0, contactCube(count));
    const system = await ParticleSystem.create(device, {
      capacity: count,
      collisions: { particleCollisions: true, iterations: 1 },
    });
    // Parked slots' radius -1 is no radius a caller may write: straight into the buffer.
    system.particles.write(0, sceneRecords(count));
    await device.queue.onSubmittedWorkDone();
    // The passes a step records, made here on the system's particles so that each can be timed alone.
    const buffer = system.particles;
    const grid = GridPass.create(device, buffer, DEFAULT_WORKGROUP_SIZE);
    const contacts = ContactPass.create(device, buffer, DEFAULT_WORKGROUP_SIZE, true);
    contacts.setLinks(noLinks(count));
    contacts.useGrid(grid);
    const collide = CollidePass.create(device, buffer, DEFAULT_WORKGROUP_SIZE);
    const colliders = prepareColliders([]);
    const colliderBuffer = device.createBuffer({
      size: colliders.bytes.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(colliderBuffer, 0, colliders.bytes);
    collide.bind(colliderBuffer, contacts.deltas, contacts.positionCopy);
    const skin = Math.fround(DEFAULT_CONTACT_SETTINGS.skin);
    const contactStep: ContactStep = {
      count,
      dt: Math.fround(DT),
      skin,
      restitution: Math.fround(DEFAULT_CONTACT_SETTINGS.restitution),
      inverseCellSize: gridSpacing(CONTACT_RADIUS, skin).inverseCellSize,
    };
    const inverseCellSize = contactStep.inverseCellSize!;
    const stages: {
      name: string;
      part: 'grid' | 'iteration' | 'first' | 'later';
      record: (encoder: GPUCommandEncoder) => void;
    }[] = [
      // Repeated, the grid is rebuilt whole each time: a stage alone again would count its particles twice.
      ...(repeat > 1
        ? [
            {
              name: 'grid',
              part: 'grid' as const,
              record: (encoder: GPUCommandEncoder) => {
                for (const stage of GRID_STAGES) grid.encodeStage(encoder, stage, count, inverseCellSize);
              },
            },
          ]
        : GRID_STAGES.map((stage) => ({
            name: stage,
            part: 'grid' as const,
            record: (encoder: GPUCommandEncoder) => grid.encodeStage(encoder, stage, count, inverseCellSize),
          }))),
      ...contactStages.map((stage) => ({
        name: stage === 'count' ? 'count (first)' : stage,
        part:
          stage === 'candidates' ? ('grid' as const) : stage === 'count' ? ('first' as const) : ('iteration' as const),
        record: (encoder: GPUCommandEncoder) => contacts.encode(encoder, stage, contactStep),
      })),
      {
        name: 'apply',
        part: 'iteration',
        record: (encoder) => collide.encode(encoder, { count, colliderCount: 0, dt: contactStep.dt, skin }, true),
      },
      // After a resolve: a later iteration's count (the first also makes the wide lists).
      {
        name: 'count (later)',
        part: 'later',
        record: (encoder) => contacts.encode(encoder, 'count', contactStep),
      },
    ];
    // Each pass is timed right after a plain step, and quoted as a multiple of
    // that step too: the machine's load drifts, the ratio much less.
    const samples = new Map<string, { ms: number[]; ratio: number[] }>();
    for (const stage of stages) samples.set(stage.name, { ms: [], ratio: [] });
    const steps: number[] = [];
    for (let r = 0; r < repeats; r++) {
      for (const stage of stages) {
        const step = (await time((encoder) => plain.encodeSteps(encoder, DT, repeat))) / repeat;
        const ms =
          (await time((encoder) => {
            for (let k = 0; k < repeat; k++) stage.record(encoder);
          })) / repeat;
        steps.push(step);
        samples.get(stage.name)!.ms.push(ms);
        samples.get(stage.name)!.ratio.push(ms / step);
      }
    }
    if (process.env.PROFILE_SAMPLES)
      for (const [name, { ms }] of samples) process.stdout.write(`${name}: ${ms.map(msText).join(' ')}\n`);
    for (const owned of [grid, contacts, collide, colliderBuffer, system, plain]) owned.destroy();
    let gridMs = 0;
    let gridRatio = 0;
    // One iteration without its count (resolve, apply), and the two counts.
    let iterationMs = 0;
    let iterationRatio = 0;
    const counts = { first: { ms: 0, ratio: 0 }, later: { ms: 0, ratio: 0 } };
    const parts: string[] = [];
    for (const stage of stages) {
      const ms = median(samples.get(stage.name)!.ms);
      const ratio = median(samples.get(stage.name)!.ratio);
      if (stage.part === 'grid') {
        gridMs += ms;
        gridRatio += ratio;
      } else if (stage.part === 'iteration') {
        iterationMs += ms;
        iterationRatio += ratio;
      } else {
        counts[stage.part] = { ms, ratio };
      }
      parts.push(`${stage.name} ${msText(ms)} (${ratio.toFixed(1)}x)`);
    }
    const iterations = DEFAULT_CONTACT_SETTINGS.iterations;
    // The step's first count, then iterations - 1 later ones.
    const countsRatio = counts.first.ratio + (iterations - 1) * counts.later.ratio;
    iterationMs += counts.later.ms;
    iterationRatio += counts.later.ratio;
    process.stdout.write(
      `2^${exponent}: step ${msText(median(steps))} ms | ${parts.join(', ')} ms (x the step) | ` +
        `grid + lists ${msText(gridMs)} ms (${gridRatio.toFixed(1)}x), iteration ${msText(iterationMs)} ms ` +
        `(${iterationRatio.toFixed(1)}x, with a later count); grid + ${iterations} iterations = ` +
        `${(gridRatio + countsRatio + iterations * (iterationRatio - counts.later.ratio)).toFixed(1)}x the step\n`,
    );
  }
} finally {
  timer?.destroy();
  device.destroy();
}
