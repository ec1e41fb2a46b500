/**
 * The scene format as a JSON Schema (draft 2020-12), generated from its zod
 * definition (src/scene/sceneSchema.ts's `sceneObject`): what
 * public/scene.schema.json holds (`npm run scene-schema`), what the
 * playground's completion reads, and what a scene file names as `"$schema"`.
 *
 * The scene's colliders, links, collisions, forces, emitters, firework rules
 * and look are `z.unknown()` in `sceneObject`: the core checks them (its
 * refusals are the messages users see). Their description here is built from
 * the core's own key lists and enum lists (COLLIDER_KEYS, EMITTER_KEYS,
 * FORCE_PARAMETERS, SPRITE_SHAPES, ...), each key given a type once in a
 * table whose type makes TypeScript refuse a key left undescribed. What the
 * schema cannot say (rules across fields, index ranges that depend on the
 * particle count, a unique firework type, sorted stops) stays the core's:
 * test/sceneSchema.test.ts lists those differences.
 */
import { z } from 'zod';
import { SORT_ORDERS } from '../core/depthSort';
import { COLLIDER_HITS, COLLIDER_KEYS, COLLIDER_TYPES } from '../core/collisions/colliders';
import { LINK_KEYS, LINK_TYPES } from '../core/collisions/links';
import { MAX_ITERATIONS, OPTION_KEYS } from '../core/collisions/world';
import { EMITTER_KEYS, FIREWORK_RULE_KEYS, SHAPE_KEYS, type ShapeInit } from '../core/emitters/types';
import { FORCE_PARAMETERS, FORCE_RULES, SPRING_KINDS, type ForceType } from '../core/forces/generators';
import { LOOK_CURVE_KEYS, MAX_CURVE_STOPS } from '../core/look/curves';
import {
  FLIPBOOK_KEYS,
  FLIPBOOK_MODES,
  MAX_ANGLE,
  MAX_FLIPBOOK_SIDE,
  SPRITE_KEYS,
  SPRITE_ORIENTATIONS,
  SPRITE_SHAPES,
} from '../core/look/sprite';
import { SPRING_KEYS, TARGET_KEYS } from './forces';
import {
  RULE_LOOK_KEYS,
  SCENE_BLEND_MODES,
  SCENE_COLOR_MODES,
  SCENE_DRAW_MODES,
  SCENE_LOOK_KEYS,
  TRAIL_KEYS,
} from './look';
import { sceneObject } from './sceneSchema';

type Keys<T extends readonly string[]> = T[number];

// The value types, each described once.
const number = z.number();
const nonNegative = z.number().min(0);
const positive = z.number().gt(0);
const unit = z.number().min(0).max(1);
const integer = (min: number, max?: number) => (max === undefined ? z.int().min(min) : z.int().min(min).max(max));
const vec3 = z.tuple([number, number, number]);
const index = integer(0);
/** One value, or [min, max] drawn uniformly per particle (the emitters' RangeInit). */
const range = (value: z.ZodNumber) => z.union([value, z.tuple([value, value])]);

/** A strict object of `keys` (the core's list), each typed by `fields`; `required` are the keys the core requires. */
function strictOf<K extends string>(
  keys: readonly K[],
  fields: Record<K, z.ZodType>,
  required: readonly K[] = [],
): z.ZodObject {
  return z.strictObject(
    Object.fromEntries(keys.map((key) => [key, required.includes(key) ? fields[key] : fields[key].optional()])),
  );
}

// Colliders: one object a type, told apart by `type`.
const colliderFields = {
  normal: vec3.describe('plane: its normal, any nonzero vector (normalised)'),
  offset: number.describe('plane: its distance from the origin along the normal, m. Default 0'),
  center: vec3.describe('its centre [x, y, z], m'),
  radius: positive.describe('sphere: its radius, m, > 0'),
  halfExtents: z.tuple([positive, positive, positive]).describe('box: half its size along each axis, m, each > 0'),
  rotation: z
    .tuple([number, number, number, number])
    .describe('orientedBox: a quaternion [x, y, z, w] turning the box into the world (normalised)'),
  inside: z.boolean().describe('true: particles are kept inside (a container); false: outside. Default false'),
  restitution: unit.describe('bounciness in [0, 1]. Default 0'),
  friction: nonNegative.describe('Coulomb friction >= 0. Default 0'),
  kill: z.boolean().describe("old spelling of onHit 'die'"),
  onHit: z.enum(COLLIDER_HITS as [string, ...string[]]).describe('what a touching particle does. Default bounce'),
};
const colliderRequired = {
  plane: ['normal'],
  sphere: ['center', 'radius'],
  box: ['center', 'halfExtents'],
  orientedBox: ['center', 'halfExtents', 'rotation'],
} as const satisfies Record<(typeof COLLIDER_TYPES)[number], readonly string[]>;
const collider = z.discriminatedUnion(
  'type',
  COLLIDER_TYPES.map((type) =>
    strictOf(COLLIDER_KEYS[type], { ...colliderFields, type: z.literal(type).describe(`a ${type} collider`) }, [
      'type',
      ...colliderRequired[type],
    ]),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

// Links: cables and rods between two particles, or a particle and an anchor.
const linkFields = {
  a: index.describe('a particle index'),
  b: index.describe('the second particle (or give anchor)'),
  anchor: vec3.describe('a fixed point [x, y, z] instead of a second particle'),
  maxLength: positive.describe('cable: the most the ends may be apart, m'),
  length: positive.describe('rod: the length it holds, m'),
  restitution: unit.describe('cable: bounciness when it goes taut, in [0, 1]'),
};
const linkRequired = { cable: ['a', 'maxLength'], rod: ['a', 'length'] } as const;
const link = z.discriminatedUnion(
  'type',
  LINK_TYPES.map((type) =>
    strictOf(LINK_KEYS[type], { ...linkFields, type: z.literal(type).describe(`a ${type}`) }, [
      'type',
      ...linkRequired[type],
    ]),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

// The contact resolver's settings (colliders and links go at the top level).
const collisionFields = {
  particleCollisions: z.boolean().describe('particles collide with each other, as spheres of their radius'),
  restitution: unit.describe('restitution of particle-particle contacts, in [0, 1]. Default 0.5'),
  iterations: integer(1, MAX_ITERATIONS).describe('Jacobi iterations of the resolver per step. Default 8'),
  skin: unit.describe('distance before touching from which a contact exists. Default 1e-4'),
};
const collisions = strictOf(
  OPTION_KEYS.filter((key): key is keyof typeof collisionFields => key in collisionFields),
  collisionFields,
);

// Forces: a generator of each type (each parameter's rule from FORCE_PARAMETERS), and the pair springs.
const ruleTypes = {
  vector: vec3,
  axis: vec3.describe('a nonzero vector'),
  nonNegative,
  positive,
  finite: number,
  softening: positive,
  seed: integer(0, 2 ** 32 - 1),
} as const;
const targetFields = {
  particle: index.describe('the one particle it applies to'),
  particles: z.array(index).describe('the particles it applies to'),
  range: z
    .strictObject({ start: index.describe('the first particle'), count: index.describe('how many') })
    .describe('the particles [start, start + count)'),
};
const generator = (type: ForceType) => {
  const parameters = Object.entries(FORCE_PARAMETERS[type]) as [
    string,
    { rule: keyof typeof ruleTypes; default?: unknown },
  ][];
  const shape: Record<string, z.ZodType> = { type: z.literal(type).describe(`a ${type} force generator`) };
  for (const [name, spec] of parameters) {
    // The parameter's rule as the core words it (FORCE_RULES), and its default.
    const rule = `${name}: ${FORCE_RULES[spec.rule]}`;
    const value = ruleTypes[spec.rule];
    shape[name] =
      spec.default === undefined
        ? value.describe(rule)
        : value.optional().describe(`${rule}; default ${JSON.stringify(spec.default)}`);
  }
  for (const key of TARGET_KEYS) shape[key] = targetFields[key].optional();
  return z.strictObject(shape);
};
const springFields: Record<Keys<typeof SPRING_KEYS>, z.ZodType> = {
  a: index.describe('one end, a particle index'),
  b: index.describe('the other end, a particle index'),
  restLength: nonNegative.describe('the length at rest, m'),
  stiffness: nonNegative.describe('N/m'),
};
const force = z.discriminatedUnion('type', [
  ...(Object.keys(FORCE_PARAMETERS) as ForceType[]).map(generator),
  ...SPRING_KINDS.map((kind) =>
    strictOf(
      ['type', ...SPRING_KEYS],
      { ...springFields, type: z.literal(kind).describe(`a ${kind} between particles a and b`) },
      ['type', ...SPRING_KEYS],
    ),
  ),
] as unknown as [z.ZodObject, ...z.ZodObject[]]);

// The look: curves, sprite, trails, draw settings.
const colorStop = z.strictObject({
  at: unit.describe('normalised age (or speed), in [0, 1]; stops sorted by it'),
  color: z
    .union([z.tuple([unit, unit, unit]), z.tuple([unit, unit, unit, unit])])
    .describe('[r, g, b] or [r, g, b, a]'),
});
const gradient = z.array(colorStop).min(1).max(MAX_CURVE_STOPS);
/** A scalar curve whose values pass `value`'s rule. */
const curve = (value: z.ZodNumber) =>
  z
    .array(z.strictObject({ at: unit.describe('normalised age, in [0, 1]'), value: value.describe('the value at at') }))
    .min(1)
    .max(MAX_CURVE_STOPS);
const curves = strictOf(LOOK_CURVE_KEYS, {
  color: gradient.describe('colour and alpha over normalised age'),
  size: curve(nonNegative).describe('a multiplier of the drawn size over normalised age (>= 0)'),
  opacity: curve(unit).describe('a multiplier of alpha over normalised age, in [0, 1]'),
  colorBySpeed: z
    .strictObject({
      speedRange: positive.describe('the speed, m/s, drawn at the gradient end'),
      gradient: gradient.describe('colour and alpha over speed / speedRange'),
    })
    .describe('colour and alpha by speed'),
});
const angle = z.number().min(-MAX_ANGLE).max(MAX_ANGLE);
const angleRange = z.tuple([angle, angle]);
const sprite = strictOf(SPRITE_KEYS, {
  shape: z.enum(SPRITE_SHAPES).describe('default soft; image needs the page to give the image'),
  flipbook: strictOf(
    FLIPBOOK_KEYS,
    {
      rows: integer(1, MAX_FLIPBOOK_SIDE).describe('rows of frames in the atlas'),
      columns: integer(1, MAX_FLIPBOOK_SIDE).describe('columns of frames in the atlas'),
      frames: integer(1).describe('frames used, default rows * columns'),
      mode: z.enum(FLIPBOOK_MODES).describe('default age'),
      fps: positive.describe('fps mode: frames a second'),
      cycles: positive.describe('age mode: times the frames play over a life. Default 1'),
      blend: z.boolean().describe('blend each frame into the next. Default false'),
    },
    ['rows', 'columns'],
  ).describe('the image as a flipbook atlas'),
  rotation: angleRange.describe('initial rotation range, radians [min, max]'),
  spin: angleRange.describe('angular velocity range, radians a second [min, max]'),
  orient: z.enum(SPRITE_ORIENTATIONS).describe('default screen'),
  softDistance: positive.describe('soft particles: fade depth, world units. Default 0.1'),
  filter: z.enum(['linear', 'nearest']).describe('texture filtering. Default linear'),
});
const lookFields = {
  mode: z.enum(SCENE_DRAW_MODES).describe('how particles are drawn'),
  blend: z.enum(SCENE_BLEND_MODES).describe('additive (light) or alpha (matter)'),
  colorMode: z.enum(SCENE_COLOR_MODES).describe('colour by index, speed or life, before the curves'),
  size: positive.describe('sprite radius, world units'),
  intensity: nonNegative.describe('brightness multiplier'),
  stretch: nonNegative.describe('sparks: seconds of velocity drawn behind the particle'),
  sort: z.enum(SORT_ORDERS).describe('back-to-front sorts the draw each frame (for alpha blending)'),
  curves: curves.describe('colour, size and opacity over life, colour by speed'),
  sprite: sprite.describe('the sprite: shape, flipbook, rotation, spin, orientation'),
  trails: strictOf(
    TRAIL_KEYS,
    {
      length: integer(2, 256).describe('samples a trail keeps'),
      width: positive.describe('ribbon width, world units. Default 0.05'),
      curves: z
        .strictObject({
          width: curve(nonNegative).describe('width along the trail'),
          color: gradient.describe('colour along it'),
        })
        .describe('width and colour along the trail'),
      blend: z.enum(SCENE_BLEND_MODES).describe('default additive'),
      intensity: nonNegative.describe('multiplies the colour. Default 1'),
    },
    ['length'],
  ).describe('trails behind every particle'),
};
const look = strictOf(SCENE_LOOK_KEYS, lookFields).describe(
  'how the system is drawn: mode, blend, size, curves, sprite, sort, trails',
);
const ruleLook = strictOf(RULE_LOOK_KEYS, lookFields).describe(
  "this rule's own curves; a draw setting gives it a draw (a layer) of its own",
);

// Emitters and firework rules.
const shapeFields = {
  center: vec3.describe('default [0, 0, 0]'),
  radius: nonNegative.describe('sphere, disc: the radius, >= 0'),
  surface: z.boolean().describe('uniform over the surface instead of the volume. Default false'),
  halfExtents: z.tuple([nonNegative, nonNegative, nonNegative]).describe('half the box size along x, y, z'),
  normal: vec3.describe('the disc normal, nonzero. Default [0, 1, 0]'),
  axis: vec3.describe('the cone axis, nonzero. Default [0, 1, 0]'),
  angle: z
    .number()
    .min(0)
    .lt(Math.PI / 2)
    .describe('half-angle, radians, in [0, pi/2)'),
  height: nonNegative.describe('apex to base along the axis'),
};
const shapeRequired = {
  point: [],
  sphere: ['radius'],
  box: ['halfExtents'],
  disc: ['radius'],
  cone: ['angle', 'height'],
} as const satisfies Record<ShapeInit['type'], readonly string[]>;
const shape = z
  .discriminatedUnion(
    'type',
    (Object.keys(SHAPE_KEYS) as ShapeInit['type'][]).map((type) =>
      strictOf(SHAPE_KEYS[type], { ...shapeFields, type: z.literal(type).describe(`a ${type}`) }, [
        'type',
        ...shapeRequired[type],
      ]),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .describe('where particles start. Default a point at the origin');
const payload = z
  .array(
    z.strictObject({
      type: integer(1).describe('the firework type of the children'),
      count: integer(0).describe('how many'),
    }),
  )
  .max(4)
  .describe('children: count fireworks of rule type each (at most 4 entries, 255 in all)');
const spawnFields = {
  velocity: z
    .union([
      z
        .strictObject({
          direction: vec3.describe('the cone axis, nonzero. Default [0, 1, 0]'),
          spread: z.number().min(0).max(Math.PI).describe('half-angle of the cone of directions, radians'),
          speed: range(nonNegative).describe('m/s, or [min, max]'),
        })
        .partial(),
      z.strictObject({ min: vec3.describe('lowest velocity, per component'), max: vec3.describe('highest') }),
    ])
    .describe('a direction, spread and speed, or Cyclone [min, max] per component. Default at rest'),
  mass: range(positive).describe('kg, > 0, or [min, max]. Default 1'),
  damping: range(unit).describe('share of velocity kept, in [0, 1]. Default 1'),
  acceleration: vec3.describe('constant acceleration (gravity), m/s²'),
  radius: nonNegative.describe('collision radius. Default 0'),
  color: z
    .union([z.tuple([unit, unit, unit]), z.tuple([unit, unit, unit, unit])])
    .describe('rgb or rgba in [0, 1]. Default white'),
  size: range(nonNegative).describe('drawn size. Default 1'),
  floor: z.union([number, z.null()]).describe('a particle below this height dies; null: no floor'),
  inherit: number.describe('share of the parent velocity a particle starts with. Default 1'),
  seed: integer(0, 2 ** 32 - 1).describe('the random stream seed'),
  onCollision: z
    .strictObject({ payload: payload })
    .describe('children spawned where a particle starts touching a collider'),
  look: ruleLook,
};
const emitter = strictOf([...EMITTER_KEYS, 'look'], {
  ...spawnFields,
  rate: z.number().min(0).describe('particles per second. Default 0'),
  burst: integer(0).describe('particles emitted at the first step. Default 0'),
  shape,
  lifetime: range(nonNegative).describe('seconds a particle lives, or [min, max]. Default 1'),
  emitterVelocity: vec3.describe("the emitter's own velocity, which particles inherit. Default [0, 0, 0]"),
  firework: integer(1).describe('launches fireworks of this type (the rule gives their velocity, lifetime, ...)'),
});
const fireworkRule = strictOf(
  [...FIREWORK_RULE_KEYS, 'look'],
  {
    ...spawnFields,
    type: integer(1).describe('the firework type, unique among the rules'),
    fuse: range(nonNegative).describe('seconds before it bursts, or [min, max]'),
    payload,
  },
  ['type', 'fuse'],
);

/** The parts sceneObject leaves to the core, described for the JSON Schema. */
const describedParts = {
  colliders: z.array(collider).describe(sceneObject.shape.colliders.description ?? 'colliders'),
  links: z.array(link),
  collisions: collisions,
  forces: z.array(force),
  emitters: z.array(emitter),
  fireworks: z.array(fireworkRule),
  look,
} satisfies Partial<Record<keyof typeof sceneObject.shape, z.ZodType>>;

/**
 * The scene format as a JSON Schema (draft 2020-12), generated from its zod
 * definition: what public/scene.schema.json holds and the playground's
 * completion reads.
 */
export function sceneJsonSchema(): Record<string, unknown> {
  const shape = sceneObject.shape;
  const described = Object.fromEntries(
    Object.entries(describedParts).map(([key, schema]) => {
      const description = shape[key as keyof typeof describedParts].description;
      return [key, (description ? schema.describe(description) : schema).optional()];
    }),
  );
  const schema = z.toJSONSchema(sceneObject.extend(described), { unrepresentable: 'any' }) as Record<string, unknown>;
  const required = (schema.required as string[]).filter((key) => key !== 'particles');
  return {
    ...schema,
    title: 'Sparkworks scene',
    required,
    // parseScene's rules across fields: at least one particle, or emitters or fireworks and the slots they recycle.
    anyOf: [
      { required: ['particles'], properties: { particles: { type: 'array', minItems: 1 } } },
      { required: ['emitters', 'capacity'] },
      { required: ['fireworks', 'capacity'] },
    ],
  };
}
