// What every lifecycle kernel that judges deaths shares. Cyclone's
// Firework::update after the step: a particle dies once it has outlived its
// lifetime (Cyclone: the fuse left drops below 0), falls below its rule's
// floor (Cyclone: position.y < 0), or was killed by a collider (its radius is
// negative). A death is one bit of `deadBits`, bit k % 32 of word k / 32 for
// live index k: the compaction visits words, so its cost follows the deaths
// (and the live count / 32), and integer bit order keeps it deterministic.
// The including file declares the particle store, `life` and `rules`.
// Mirrored by src/core/emitters/lifeDeath.ts (dies, childrenOf, hitChildrenOf).

// Fields and lanes by name, only what is needed (a whole particle is 64 bytes, a
// spawn rule far more): a layout change that moves them fails to compile here.
// Without branches (`|`, not `||`; a particle without a rule reads rule 0's
// floor and ignores it): the software adapter runs a branch's code under a
// lane mask whether a lane takes it or not, and pays for the mask on top.
// SHARED_FLOOR: every spawn rule has the floor FLOOR (src/core/emitters/spawnRules.ts,
// sharedFloor), written in so that no rule is looked up: a uniform read at a
// per-particle index costs the software adapter about half a step.
override SHARED_FLOOR: bool = false;
override FLOOR: f32 = 0.0;

fn dies(slot: u32, age: f32) -> bool {
  return diesWith(slot, age, particlePositionInverseMassY(slot), particleAccelerationRadiusW(slot));
}

// `dies` with the particle's position.y and radius as the caller holds them (the step's, shaders/step/liveAge.wgsl).
fn diesWith(slot: u32, age: f32, positionY: f32, radius: f32) -> bool {
  let ruleIndex = life[slot].rule;
  let hasRule = ruleIndex != NO_RULE;
  var floor = FLOOR;
  if (!SHARED_FLOOR) { floor = rules[select(0u, ruleIndex, hasRule)].floor; }
  return (age > life[slot].lifetime) | (radius < 0.0) | (hasRule & (positionY < floor));
}

// The children a particle of spawn rule `ruleIndex` (its life record's rule) leaves when it dies.
fn childrenOf(ruleIndex: u32) -> u32 {
  if (ruleIndex == NO_RULE) { return 0u; }
  let counts = rules[ruleIndex].payloadCounts;
  return counts.x + counts.y + counts.z + counts.w;
}

// The children a particle of spawn rule `ruleIndex` leaves at a collision event (its rule's onCollision).
fn hitChildrenOf(ruleIndex: u32) -> u32 {
  if (ruleIndex == NO_RULE) { return 0u; }
  let counts = rules[ruleIndex].hitPayloadCounts;
  return counts.x + counts.y + counts.z + counts.w;
}

fn deathBit(k: u32) -> u32 {
  return 1u << (k % 32u);
}
