/**
 * The scene file's `look`: how a scene's particles are drawn, as data. The
 * values are checked by the core's own validators (src/core/look: curves,
 * sprites, trail curves), and refusals name their JSON path.
 *
 * ```json
 * "look": {
 *   "mode": "sprites", "blend": "alpha", "size": 0.2, "sort": "back-to-front",
 *   "sprite": { "shape": "smoke", "rotation": [0, 6.28], "spin": [-0.5, 0.5] },
 *   "curves": { "color": [{ "at": 0, "color": [1, 0.8, 0.4] }, { "at": 1, "color": [0.2, 0.2, 0.2, 0] }] },
 *   "trails": { "length": 16, "width": 0.02, "blend": "additive" }
 * },
 * "emitters": [{ ..., "look": { "curves": { "size": [{ "at": 0, "value": 1 }, { "at": 1, "value": 3 }] } } }]
 * ```
 *
 * The top level's `look` is the system's draw. An emitter's (or a firework
 * rule's) `look` gives that spawn rule its own `curves` (the renderer's
 * `ParticleLook.rules`, indexed by the spawn-rule table: emitters first, then
 * firework rules in order). A rule's look that also names a draw setting
 * (`mode`, `blend`, `colorMode`, `size`, `intensity`, `stretch`, `sprite` or
 * `sort`) gets a draw of its own, a layer: the renderer has one sprite and
 * one blend a draw, so a campfire's additive flames and sorted alpha smoke
 * are two draws of one system, each hiding the other's rules (size and
 * opacity 0: a sprite of no pixels is drawn with no alpha). Trails at the
 * top level are every particle's; a rule's `trails` are its own particles'
 * (a campfire's sparks, not its smoke), each with its own length.
 *
 * A sprite of shape `image` needs the image from the page drawing the scene
 * (ParticleLook.spriteImage): the campfire demo generates its flame atlas.
 *
 * Pure data: nothing here knows the GPU.
 */
import { SORT_ORDERS, type SortOrder } from '../core/depthSort';
import { SparkworksInputError } from '../core/errors';
import { validateLookCurves, type LookCurves } from '../core/look/curves';
import { validateSprite, type SpriteLook } from '../core/look/sprite';
import { DEFAULT_TRAIL_CURVES, checkTrailLength, validateTrailCurves, type TrailCurves } from '../core/look/trails';
import { refusalMessage, validator, type Validator } from '../core/validation';

/** The draw modes, blends and colour modes a scene's look names (the renderer's ParticleLook's). */
/** The draw modes a scene's look names (the renderer's DRAW_MODES). */
export const SCENE_DRAW_MODES = ['sprites', 'sparks', 'points'] as const;
/** The blend modes a scene's look names (the renderer's BLEND_MODES). */
export const SCENE_BLEND_MODES = ['additive', 'alpha'] as const;
/** The colour modes a scene's look names (the renderer's COLOR_MODES). */
export const SCENE_COLOR_MODES = ['index', 'speed', 'life'] as const;

/** The JSON-able part of the renderer's ParticleLook a scene sets; a field left out keeps the page's default. */
export interface SceneDrawLook {
  /** `sprites`, `sparks` or `points` (the renderer's DrawMode). */
  mode?: (typeof SCENE_DRAW_MODES)[number];
  /** `additive` (light) or `alpha` (matter). */
  blend?: (typeof SCENE_BLEND_MODES)[number];
  /** Colour by `index`, `speed` or `life`, before the curves. */
  colorMode?: (typeof SCENE_COLOR_MODES)[number];
  /** Sprite radius, world units (> 0). */
  size?: number;
  /** Brightness multiplier (>= 0). */
  intensity?: number;
  /** Sparks: seconds of velocity drawn behind the particle (>= 0). */
  stretch?: number;
  /** `back-to-front` sorts the draw on the GPU each frame (for `alpha` blending); `none` by default. */
  sort?: SortOrder;
  /** Colour, size and opacity over life, colour by speed. */
  curves?: LookCurves;
  /** The sprite: shape or image, flipbook, rotation, spin, orientation, soft distance. */
  sprite?: SpriteLook;
}

/** The scene's trails: rings of `length` samples, a ribbon `width` wide, curves along it. */
export interface SceneTrails {
  /** Samples a ring keeps, 2..256 (recorded once a frame by the page). */
  length: number;
  /** Ribbon width in world units where the width curve is 1 (> 0). Default 0.05. */
  width: number;
  /** Width and colour along the trail. Default: narrowing, fading white. */
  curves: TrailCurves;
  /** `additive` or `alpha`. Default `additive`. */
  blend: (typeof SCENE_BLEND_MODES)[number];
  /** Multiplies the colour. Default 1. */
  intensity: number;
}

/** One draw of the scene's system: its look, with the curves of every spawn rule (others' hidden). */
export interface SceneLayer {
  /** The spawn rules this layer shows: null for the system's draw (every rule without a layer of its own). */
  rule: number | null;
  /** The draw's look; `rules` is filled for every spawn rule (hidden ones with size and opacity 0). */
  look: SceneDrawLook & {
    /** Each spawn rule's curves in this draw, by table index. */
    rules: (LookCurves | null)[];
  };
}

/** A scene's look, checked and split into draws. */
export interface SceneLook {
  /** The top level's look (the system's draw), as given (checked). */
  system: SceneDrawLook;
  /** Each spawn rule's own curves (emitters first, then firework rules), null where it has none. */
  rules: (LookCurves | null)[];
  /** The draws, in order: the system's (unless every rule has its own), then each rule's that has one. */
  layers: SceneLayer[];
  /** The top level's trails (every spawn rule's particles), or null without. */
  trails: SceneTrails | null;
  /** Each spawn rule's own trails (its `look.trails`): drawn for that rule's particles only. */
  ruleTrails: {
    /** The spawn rule's index: emitters first, then firework rules. */
    rule: number;
    /** That rule's trails, checked. */
    trails: SceneTrails;
  }[];
}

/** Keys of a look: the top level's (with trails) and a rule's. */
const DRAW_KEYS = ['mode', 'blend', 'colorMode', 'size', 'intensity', 'stretch', 'sort', 'sprite'] as const;
export const RULE_LOOK_KEYS = ['curves', ...DRAW_KEYS, 'trails'] as const;
/** Keys a scene's top-level `look` may have: a rule's (its `trails` every particle's). */
export const SCENE_LOOK_KEYS = RULE_LOOK_KEYS;
export const TRAIL_KEYS = ['length', 'width', 'curves', 'blend', 'intensity'] as const;

/** A spawn rule hidden in a draw: a sprite of no pixels draws with no alpha (ParticlePass's minPixels rule). */
const HIDDEN: LookCurves = { size: [{ at: 0, value: 0 }], opacity: [{ at: 0, value: 0 }] };

const check: Validator = validator();

/** Runs a core check, giving a refusal without a rule of its own the rule recovered from its worded message. */
function core<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof SparkworksInputError) || error.rule !== '') throw error;
    const prefix = refusalMessage(error.what, error.value, '');
    const rule = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new SparkworksInputError(error.message, error.what, error.value, rule);
  }
}

const positive = 'must be a finite number > 0';
const nonNegative = 'must be a finite number >= 0';

/** A look object (the top level's when `trails` is allowed), checked; `what` is its path (`look`, `emitters[1].look`). */
function drawLook(what: string, value: unknown, keys: readonly string[]): SceneDrawLook {
  const object = check.object(what, value, keys, 'must be an object {"curves": ..., "sprite": ..., ...}');
  const out: SceneDrawLook = {};
  if (object.mode !== undefined) out.mode = check.oneOf(`${what}.mode`, object.mode, SCENE_DRAW_MODES);
  if (object.blend !== undefined) out.blend = check.oneOf(`${what}.blend`, object.blend, SCENE_BLEND_MODES);
  if (object.colorMode !== undefined) {
    out.colorMode = check.oneOf(`${what}.colorMode`, object.colorMode, SCENE_COLOR_MODES);
  }
  if (object.size !== undefined) out.size = check.finite(`${what}.size`, object.size, positive, (x) => x > 0);
  if (object.intensity !== undefined) {
    out.intensity = check.finite(`${what}.intensity`, object.intensity, nonNegative, (x) => x >= 0);
  }
  if (object.stretch !== undefined) {
    out.stretch = check.finite(`${what}.stretch`, object.stretch, nonNegative, (x) => x >= 0);
  }
  if (object.sort !== undefined) out.sort = check.oneOf(`${what}.sort`, object.sort, SORT_ORDERS);
  if (object.curves !== undefined) out.curves = core(() => validateLookCurves(`${what}.curves`, object.curves));
  if (object.sprite !== undefined) {
    // Checked by the core; kept as given (the renderer fills in the defaults itself).
    core(() => validateSprite(`${what}.sprite`, object.sprite));
    out.sprite = object.sprite as SpriteLook;
  }
  return out;
}

function trails(what: string, value: unknown): SceneTrails {
  const object = check.object(what, value, TRAIL_KEYS, 'must be an object {"length": n, ...}');
  if (object.length === undefined) check.refuse(`${what}.length`, object.length, 'is required: samples a trail keeps');
  return {
    length: core(() => checkTrailLength(object.length as number, `${what}.length`)),
    width: object.width === undefined ? 0.05 : check.finite(`${what}.width`, object.width, positive, (x) => x > 0),
    curves:
      object.curves === undefined
        ? DEFAULT_TRAIL_CURVES
        : core(() => validateTrailCurves(`${what}.curves`, object.curves)),
    blend: object.blend === undefined ? 'additive' : check.oneOf(`${what}.blend`, object.blend, SCENE_BLEND_MODES),
    intensity:
      object.intensity === undefined
        ? 1
        : check.finite(`${what}.intensity`, object.intensity, nonNegative, (x) => x >= 0),
  };
}

/** A spawn rule's `look`, where it is: `emitters[i].look` or `fireworks[j].look`. */
interface RuleLookEntry {
  what: string;
  value: unknown;
}

/** The `look` of each entry of a list (emitters, firework rules), undefined where none. */
function lookOf(entry: unknown): unknown {
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as Record<string, unknown>).look
    : undefined;
}

/**
 * A scene's look, checked (SparkworksInputError naming `look...`,
 * `emitters[i].look...` or `fireworks[j].look...`) and split into draws.
 * Without any look: one layer with an empty look (the page's own).
 */
export function sceneLook(
  look: unknown,
  emitters: readonly unknown[] | undefined,
  fireworks: readonly unknown[] | undefined,
): SceneLook {
  const system = look === undefined ? {} : drawLook('look', look, SCENE_LOOK_KEYS);
  const trailsGiven = look !== undefined ? (look as Record<string, unknown>).trails : undefined;
  const entries: RuleLookEntry[] = [
    ...(emitters ?? []).map((e, i) => ({ what: `emitters[${i}].look`, value: lookOf(e) })),
    ...(fireworks ?? []).map((r, j) => ({ what: `fireworks[${j}].look`, value: lookOf(r) })),
  ];
  const ruleLooks = entries.map(({ what, value }) =>
    value === undefined ? null : drawLook(what, value, RULE_LOOK_KEYS),
  );
  const rules = ruleLooks.map((l) => l?.curves ?? null);
  const own = ruleLooks.map((l) => l !== null && DRAW_KEYS.some((key) => l[key] !== undefined));
  const layers: SceneLayer[] = [];
  const shared = own.some((x) => !x) || own.length === 0;
  if (shared) {
    layers.push({ rule: null, look: { ...system, rules: rules.map((curves, r) => (own[r] ? HIDDEN : curves)) } });
  }
  ruleLooks.forEach((ruleLook, r) => {
    if (!own[r] || !ruleLook) return;
    const { curves: _curves, ...settings } = ruleLook;
    layers.push({
      rule: r,
      look: {
        ...system,
        ...settings,
        rules: rules.map((curves, k) => (k === r ? curves : HIDDEN)),
      },
    });
  });
  const ruleTrails = entries.flatMap(({ what, value }, rule) => {
    const given = value === undefined ? undefined : (value as Record<string, unknown>).trails;
    return given === undefined ? [] : [{ rule, trails: trails(`${what}.trails`, given) }];
  });
  return {
    system,
    rules,
    layers,
    trails: trailsGiven === undefined ? null : trails('look.trails', trailsGiven),
    ruleTrails,
  };
}

/** An emitter's or firework rule's fields without its `look` (which the core's validators do not know). */
export function withoutLook<T>(entry: T): T {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry) || !('look' in entry)) return entry;
  const { look: _look, ...rest } = entry as Record<string, unknown>;
  return rest as T;
}
