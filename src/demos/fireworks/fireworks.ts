/**
 * Fireworks: Cyclone's fireworks demo (FireworksDemo) on the GPU. Nine
 * firework rules (CYCLONE_FIREWORK_RULES: fuse, velocity range, damping,
 * colour, payload) and one launcher per type on Cyclone's launch line
 * (cycloneLaunchers); a rocket whose fuse runs out, or that falls below the
 * ground, dies and its payload is born where it died, with its velocity, and
 * so on for children of children. Launches, fuses, bursts, deaths and the
 * recycling of slots all happen in the system's lifecycle passes
 * (src/gpu/lifecycle/lifecycle.ts): the host only sets the launchers' rates, and reads
 * the counters back for the status line without waiting for them. The draw
 * is indirect over the live list (ParticlePass.bindLive): free slots are
 * never drawn, and each particle is coloured from its life record (its
 * rule's colour, white-hot at birth, fading at the end of its fuse).
 *
 * Two departures from Cyclone, both in the panel: the payload counts are
 * multiplied (1 gives Cyclone's 5 + 5, 2, 5 and 10 children; more fills the
 * sky and the pool), and the launchers fire on their own at a steady rate
 * instead of on a key press (one type alone is Cyclone's key 1 to 9 held down).
 */
import { CYCLONE_FIREWORK_RULES, cycloneLaunchers } from '../../core/emitters/cyclone';
import type { FireworkRuleInit } from '../../core/emitters/types';
import { DEFAULT_LOOK, type ParticleLook } from '../../render/particleLook';
import { defineDemo, type DemoContext, type DemoScene, type SceneFrame } from '../shared/demo';
import { LiveStatsPoller } from '../shared/liveStats';
import { applyLookParams, lifeColours, speedColours } from '../shared/commonParams';
import type { ParamValues } from '../shared/params';
import { FIREWORKS_PARAMS, type LaunchType } from './params';
import { DemoGround } from '../shared/ground';
import { demoSystem, lifecycleOf, systemSceneParts } from '../shared/systemScene';

type Params = ParamValues<typeof FIREWORKS_PARAMS>;

const BACKGROUND = [0.012, 0.014, 0.03] as const;

/**
 * The mix's share of launches per type (Cyclone's keys 1 to 9): mostly the
 * types that burst (1, 2, 5, 7) and the long-lived 6 and 9; 3, 4 and 8 come
 * as payloads.
 */
const MIX_WEIGHTS: Readonly<Record<number, number>> = { 1: 3, 2: 2, 3: 0, 4: 0, 5: 1, 6: 1, 7: 1, 8: 0, 9: 1 };
const MIX_TOTAL = Object.values(MIX_WEIGHTS).reduce((a, w) => a + w, 0);
/** Rockets in the sky at the first step, so the show starts at once: types 1, 2 and 7 in the mix. */
const OPENING: readonly number[] = [1, 2, 7];
/** Drawn size (times the look's size) of a firework that bursts, beside 1 for its sparks. */
const ROCKET_SIZE = 1.6;

/** Cyclone's rules with the payload counts times `scale`, gravity `gravity` and seeds from `seed`. */
export function fireworkRules(scale: number, gravity: number, seed: number): FireworkRuleInit[] {
  return CYCLONE_FIREWORK_RULES.map((rule, i) => {
    const payload = (rule.payload ?? []).map((p) => ({ type: p.type, count: p.count * scale }));
    return {
      ...rule,
      payload,
      acceleration: [0, -gravity, 0],
      size: payload.length > 0 ? ROCKET_SIZE : 1,
      seed: (seed * 64 + 32 + i) >>> 0,
    };
  });
}

/** Launches per second of the launcher of `type`, for the panel's rate and choice. */
function launchRate(type: number, launch: LaunchType, rate: number): number {
  if (launch === 'mix') return (rate * (MIX_WEIGHTS[type] ?? 0)) / MIX_TOTAL;
  return Number(launch) === type ? rate : 0;
}

export async function createFireworks(context: DemoContext<Params>): Promise<DemoScene> {
  const { passes, params, resume } = context;
  const capacity = params.count;
  const launchers = cycloneLaunchers(0, (params.seed * 64) >>> 0);
  // Restored, the launchers' rates, pending bursts and random streams are the snapshot's.
  const system = await demoSystem(context, {
    capacity,
    emitters: launchers,
    fireworks: fireworkRules(params.payload, params.gravity, params.seed),
  });
  const { lifecycle, emitters } = lifecycleOf(system, 'fireworks');
  const types = launchers.map((l) => l.firework as number);
  const binding = passes.particles.bindLive('Fireworks.particles', system.particleStore, lifecycle.buffers);
  const ground = new DemoGround(passes, 'Fireworks.ground', {
    halfSize: 60,
    lineColor: [0.16, 0.19, 0.28],
    planeColor: [0.03, 0.035, 0.06],
    background: BACKGROUND,
  });

  /** Fires one firework of each of `fire`'s types at the next step (a key press in Cyclone). */
  const press = (fire: readonly number[]) => {
    for (const type of fire) emitters.burst(types.indexOf(type), 1);
  };
  /** The launch choice and rate the launchers were last set to ('' before the first). */
  let launchKey = resume ? (resume.host as { launchKey: string }).launchKey : '';
  const applyLaunch = () => {
    const key = `${params.launch}/${params.launchRate}`;
    if (key === launchKey) return;
    const switched = launchKey !== '' && !launchKey.startsWith(`${params.launch}/`);
    launchKey = key;
    types.forEach((type, e) => emitters.set(e, { rate: launchRate(type, params.launch, params.launchRate) }));
    if (switched && params.launch !== 'mix') press([Number(params.launch)]);
  };
  applyLaunch();
  // The opening show, once: a restored system continues its own.
  if (!resume) press(params.launch === 'mix' ? OPENING : [Number(params.launch)]);

  const live = new LiveStatsPoller(system);
  const summary = () => {
    if (!live.stats) return null;
    const s = live.stats;
    // Every death of a type with a payload is a burst (its fuse ran out, or it fell below the ground).
    let bursts = 0;
    for (const rule of CYCLONE_FIREWORK_RULES) if (rule.payload?.length) bursts += s.fireworks[rule.type]?.died ?? 0;
    return { live: s.live, emitted: s.emitted, killed: s.killed, shortfall: s.shortfall, bursts };
  };

  const look: ParticleLook = {
    ...DEFAULT_LOOK,
    ...lifeColours(0.08, 0.55, 0.6),
    saturation: 0.95,
    minPixels: 1.2,
    ...speedColours([1, 0.55, 0.2], [1, 0.85, 0.5], 25),
  };

  return {
    ...systemSceneParts(system, { host: () => ({ launchKey }), owned: [binding, ground], live }),
    /** The live count, as last read back (nothing is live before the first step). */
    get particleCount() {
      return live.live;
    },
    beforeSteps() {
      applyLaunch();
      live.poll();
    },
    render(pass, frame: SceneFrame) {
      if (params.ground) ground.draw(pass, frame.view);
      applyLookParams(look, params);
      look.stretch = params.stretch;
      passes.particles.draw(pass, binding, look, frame.view, frame.time);
    },
    status() {
      const s = summary();
      const n = (x: number) => x.toLocaleString('en-US');
      const slots = `${n(s?.live ?? 0)} live of ${n(capacity)} slots`;
      if (!s) return slots;
      return `${slots} · ${n(s.emitted)} born · ${n(s.killed)} died · ${n(s.bursts)} bursts · ${n(s.shortfall)} did not fit`;
    },
    check() {
      return summary();
    },
  };
}

export const fireworks = defineDemo('fireworks', 'Fireworks', FIREWORKS_PARAMS, {
  camera: { target: [0, 6, 0], distance: 24, yaw: 0, pitch: 0.1 },
  background: BACKGROUND,
  create: createFireworks,
});
