// Cyclone's particle contacts (chapter 7), resolved by Jacobi iterations with
// mass splitting: each invocation gathers every contact of its particle (its
// links, then its neighbours in the grid), works out each contact's impulse
// and interpenetration move from the same state, and writes the sum as a
// correction that shaders/collisions/collide.wgsl (APPLY_DELTAS) applies. No float
// atomics, and a fixed order of summation: the result is the same every run.
// Mirrored by src/core/collisions/contacts.ts (the CPU twin): the same pairs in
// the same order, operation for operation; the twin walks the grid where this
// reads the per-step candidate lists (the same particles, see MODE_CANDIDATES).
// Prepended: the Particle struct and accessors, shaders/shared/dispatch.wgsl, the Link
// struct generated from src/core/collisions/links.ts, shaders/collisions/gridHash.wgsl,
// shaders/collisions/positionCopy.wgsl.

// MODE_COUNT: how many contacts of each particle are activeCounts (closing; penetrating).
// MODE_RESOLVE: the corrections, with each particle's inverse mass multiplied by
//   its number of activeCounts contacts (mass splitting), so a particle pressed by k
//   contacts at once is not pushed k times over, while an impulse is still
//   applied equal and opposite to both sides (momentum is conserved).
// MODE_LIST: the particle-particle contacts found, for the tests.
// MODE_CANDIDATES: once a step, after the grid: each particle's candidates, the
//   other particles in exactly the 27 cells around its own, in the order the
//   walk of the grid meets them (cell by cell, by index). The grid is fixed for
//   the step, so they are the very particles every iteration's walk would test:
//   the other modes test the same pairs in the same order, without the walk.
//   The three cells of a row along x are one run of the sorted entries
//   (shaders/collisions/gridHash.wgsl), so the 27 cells are read as 9 runs.
// MODE_CANDIDATES runs in the grid's entry order (invocation t lists the
// candidates of the particle in entry t, reading the runs near its own), the
// other modes in particle order. MODE_COUNT keeps the candidates in reach (the
// near list) for the MODE_RESOLVE that follows it on the same state, which then
// visits only those: the same pairs in the same order. MODE_COUNT reads the
// other particles from the position copy (positionCopy), not their records.
// One loop visits a particle's links and listed neighbours, the contact worked
// out without branches (visitOther); the walk of the grid, past the candidate
// lists' room, is a loop of its own after it, which an invocation whose list
// holds its candidates never enters; what a configuration does not use
// (links) is compiled out.
// Kept lists (params.margin > 0: no world colliders, so within a step only the
// resolver's corrections move a particle): the step's first MODE_COUNT also
// lists, after each particle's candidates and in their order, those within
// reach + skin + margin (the wide list), which the later iterations filter
// instead of all 27 cells' worth. Each MODE_RESOLVE adds up a bound on its
// particle's displacement since then (the w lane of its position correction)
// and, past margin / 2, sets the stale word to its iteration: from the next
// iteration on every particle filters its candidates again. While no particle
// has moved margin / 2, no pair has closed by more than the margin, so the
// wide list filtered by the reach test gives the very subsequence the
// candidates would. MODE_CANDIDATES resets the stale word.
override MODE: u32 = 0u;
const MODE_COUNT: u32 = 0u;
const MODE_RESOLVE: u32 = 1u;
const MODE_LIST: u32 = 2u;
const MODE_CANDIDATES: u32 = 3u;
const MAX_LISTED: u32 = 8u;
// Room for the candidates of each particle (0: none, every mode walks the
// grid). A particle with more walks the grid instead: the same pairs, in the
// same order.
override CANDIDATES: u32 = 0u;
// Whether the system has links: without, their code is compiled out.
override LINKS: bool = true;

// The most CANDIDATES can be (src/gpu/collisions/contactPass.ts, MAX_CANDIDATES).
const MAX_CANDIDATES: u32 = 32u;
// Room for each particle's near list (src/gpu/collisions/contactPass.ts, NEAR_ROOM); a
// longer one is not kept, and MODE_RESOLVE filters the candidates again.
const NEAR_ROOM: u32 = 8u;

const NO_PARTICLE: u32 = 0xffffffffu;
const LINK_CABLE: u32 = 0u;
// The candidate test before the square root errs on the side of keeping a
// pair (relative slack far above float32 rounding); the exact test follows.
const REACH_SLACK: f32 = 1.0001;

// Past the near lists: the iteration whose resolve found a particle moved past
// margin / 2 since the lists were compacted (NO_PARTICLE: none). The same
// index as staleWordIndex in src/gpu/collisions/contactPass.ts, which sizes the buffer.
fn staleWord() -> u32 {
  return (3u + CANDIDATES + NEAR_ROOM) * params.capacity;
}

// ContactParams: generated from src/shaders/params.ts (the schema) and prepended.
@group(1) @binding(0) var<uniform> params: ContactParams;
@group(1) @binding(1) var<storage, read> links: array<Link>;
// The links of each particle: starts (count + 1 entries), then link indices.
@group(1) @binding(2) var<storage, read> linkIndex: array<u32>;
@group(1) @binding(3) var<storage, read> starts: array<u32>;
@group(1) @binding(4) var<storage, read> entries: array<u32>;
// Per particle, then per entry (from entry count): cell xyz and bucket (-1: not in the grid).
@group(1) @binding(5) var<storage, read> cells: array<vec4i>;
// Active contacts per particle: closing ones in the low 16 bits, penetrating
// ones above (capacity entries); then per particle: its number of candidates
// (capacity entries), their lists (CANDIDATES entries a particle), the number
// in reach (capacity entries) and their list (NEAR_ROOM entries a particle).
// One binding for all, as a stage has only 8 storage buffers.
@group(1) @binding(6) var<storage, read_write> activeCounts: array<u32>;
// Two vec4 a particle: the position correction, then the velocity change, as
// float bits (shaders/collisions/collide.wgsl reads them as vec4f), its w lane the
// particle's entry in the position copy (itself); in MODE_LIST, the
// neighbours found, as indices. Then, from vec4 2 * capacity, the position
// copy by particle (positionCopy).
@group(1) @binding(7) var<storage, read_write> deltas: array<vec4u>;

var<private> closing: u32;
var<private> penetrating: u32;
var<private> moveSum: vec3f;
var<private> velocitySum: vec3f;
var<private> listed: u32;

fn dot3(a: vec3f, b: vec3f) -> f32 {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// One contact between A and B (B may be an anchor: inverse mass 0), seen from
// A when `selfIsA`, else from B; nothing unless `isContact`. The normal points
// so that (vA - vB).n > 0 is separating. Cyclone's resolveVelocity and
// resolveInterpenetration, with the split inverse masses. Without branches:
// every value is worked out and the sums take it or not (select), so the
// software adapter runs no lane masks; the values taken are those the branches
// computed, bit for bit.
fn visitContact(
  isContact: bool,
  selfIsA: bool,
  a: u32,
  b: u32,
  vA: vec3f,
  accA: vec3f,
  wA: f32,
  vB: vec3f,
  accB: vec3f,
  wB: f32,
  n: vec3f,
  penetration: f32,
  restitution: f32,
) {
  if (MODE == MODE_COUNT) {
    countContact(isContact, vA, vB, n, penetration);
    return;
  }
  let separatingVelocity = dot3(vA - vB, n);
  let isClosing = isContact & (separatingVelocity < 0.0);
  let isPenetrating = isContact & (penetration > 0.0);
  let countsA = activeCounts[a];
  // An anchor (no particle) has no count: index 0 read, 0 taken.
  let countsB = select(activeCounts[select(b, 0u, b == NO_PARTICLE)], 0u, b == NO_PARTICLE);
  // This particle's share: +wA for A, -wB for B (Cyclone's impulsePerIMass * -inverseMass).
  let share = select(-wB, wA, selfIsA);
  let restingSepVelocity = -separatingVelocity * restitution;
  let accCausedSepVelocity = dot3(accA - accB, n) * params.dt;
  let newSepVelocity = select(
    restingSepVelocity,
    max(restingSepVelocity + restitution * accCausedSepVelocity, 0.0),
    accCausedSepVelocity < 0.0,
  );
  let deltaVelocity = newSepVelocity - separatingVelocity;
  let closingInverseMass = wA * f32(countsA & 0xffffu) + wB * f32(countsB & 0xffffu);
  let impulsePerIMass = n * (deltaVelocity / closingInverseMass);
  velocitySum = select(velocitySum, velocitySum + impulsePerIMass * share, isClosing & (closingInverseMass > 0.0));
  let penetratingInverseMass = wA * f32(countsA >> 16u) + wB * f32(countsB >> 16u);
  let movePerIMass = n * (penetration / penetratingInverseMass);
  moveSum = select(moveSum, moveSum + movePerIMass * share, isPenetrating & (penetratingInverseMass > 0.0));
}

// The position copy (shaders/collisions/positionCopy.wgsl), after the corrections in
// `deltas`, by particle: the candidate lists' dispatch writes every particle's.
// MODE_COUNT reads its candidates from the copy: its candidate test a
// candidate's first vec4 alone, not its 64-byte record, its count of the
// contacts in reach both.
fn positionCopy(e: u32) -> u32 {
  return positionCopyAt(params.positionCopy, e);
}

fn copiedPositionRadius(e: u32) -> vec4f {
  return bitcast<vec4f>(deltas[positionCopy(e)]);
}

fn copiedVelocityInverseMass(e: u32) -> vec4f {
  return bitcast<vec4f>(deltas[positionCopy(e) + 1u]);
}

// Particle i's position copy, from its record (MODE_CANDIDATES).
fn copyParticle(i: u32) {
  let lanes = positionCopyLanes(
    particlePositionInverseMass(i).xyz,
    particleAccelerationRadiusW(i),
    particleVelocityDamping(i).xyz,
    particlePositionInverseMassW(i),
  );
  deltas[positionCopy(i)] = bitcast<vec4u>(lanes[0]);
  deltas[positionCopy(i) + 1u] = bitcast<vec4u>(lanes[1]);
}

// x: true unless the pair test surely finds no contact with `other`: its reach
// test, looser by REACH_SLACK again (far above any rounding difference between
// the two places the test is compiled). y: the same test with the reach longer
// by the margin (the candidates a compacted list keeps).
fn mayReach(selfPosition: vec3f, myRadius: f32, position: vec3f, r: f32) -> vec2<bool> {
  let reach = r + myRadius;
  let d = position - selfPosition;
  let distance2 = dot3(d, d);
  let limit = reach + params.skin;
  let wideLimit = reach + (params.skin + params.margin);
  let alive = !((r < 0.0) | (myRadius < 0.0));
  return vec2<bool>(
    alive & (distance2 < limit * limit * (REACH_SLACK * REACH_SLACK)),
    alive & (distance2 < wideLimit * wideLimit * (REACH_SLACK * REACH_SLACK)),
  );
}

// Two spheres, A's and B's centre and radius (negative: killed during this
// step, no longer there): whether they are a contact (within the skin), its
// normal (from B to A; coincident centres separate along y) and its
// penetration.
struct SphereContact {
  normal: vec3f,
  penetration: f32,
  isContact: bool,
}

fn sphereContact(pA: vec3f, rA: f32, pB: vec3f, rB: f32) -> SphereContact {
  let reach = rA + rB;
  let sphereD = pA - pB;
  let distance2 = dot3(sphereD, sphereD);
  let limit = reach + params.skin;
  let distance = sqrt(distance2);
  let normal = select(vec3f(0.0, 1.0, 0.0), sphereD / distance, distance > 0.0);
  let penetration = reach - distance;
  let isContact = !((rA < 0.0) | (rB < 0.0)) & (reach > 0.0) & (distance2 < limit * limit * REACH_SLACK) &
    (penetration > -params.skin);
  return SphereContact(normal, penetration, isContact);
}

// MODE_COUNT: a contact counts as closing when A and B approach along its
// normal, as penetrating when they overlap.
fn countContact(isContact: bool, vA: vec3f, vB: vec3f, n: vec3f, penetration: f32) {
  let separatingVelocity = dot3(vA - vB, n);
  closing += select(0u, 1u, isContact & (separatingVelocity < 0.0));
  penetrating += select(0u, 1u, isContact & (penetration > 0.0));
}

// The particle whose contacts are gathered (visitParticle sets them).
var<private> selfPositionInverseMass: vec4f;
var<private> selfVelocity: vec3f;
var<private> selfAccelerationRadius: vec4f;

// One contact candidate of particle `me`: `other` (NO_PARTICLE: the link's
// anchor, immovable, at rest, at link.anchor), through `link` when `isLink`,
// else a neighbour. Works out the pair's geometry, both kinds when the system
// has links (then selects), and visits the contact if there is one.
fn visitOther(me: u32, other: u32, link: Link, isLink: bool) {
  let selfPosition = selfPositionInverseMass.xyz;
  let myRadius = selfAccelerationRadius.w;
  // An anchor's values: index 0 read, its values not taken.
  let isAnchor = other == NO_PARTICLE;
  let otherIndex = select(other, 0u, isAnchor);
  let otherPositionInverseMass = particlePositionInverseMass(otherIndex);
  var otherVelocity = vec3f(0.0);
  if (MODE != MODE_LIST) { otherVelocity = particleVelocityDamping(otherIndex).xyz; }
  let otherAccelerationRadius = particleAccelerationRadius(otherIndex);
  let selfIsA = select(me < other, me == link.a, isLink);
  let a = select(other, me, selfIsA);
  let b = select(me, other, selfIsA);
  var otherPosition = otherPositionInverseMass.xyz;
  var otherInverseMass = otherPositionInverseMass.w;
  var otherAcceleration = otherAccelerationRadius.xyz;
  if (LINKS) {
    otherPosition = select(otherPosition, link.anchor, isAnchor);
    otherVelocity = select(otherVelocity, vec3f(0.0), isAnchor);
    otherAcceleration = select(otherAcceleration, vec3f(0.0), isAnchor);
    otherInverseMass = select(otherInverseMass, 0.0, isAnchor);
  }
  let pA = select(otherPosition, selfPosition, selfIsA);
  let pB = select(selfPosition, otherPosition, selfIsA);

  let rA = select(otherAccelerationRadius.w, myRadius, selfIsA);
  let rB = select(myRadius, otherAccelerationRadius.w, selfIsA);
  let sphere = sphereContact(pA, rA, pB, rB);
  var n = sphere.normal;
  var penetration = sphere.penetration;
  var restitution = params.restitution;
  var isContact = sphere.isContact;
  if (LINKS) {
    // Cyclone's ParticleCable, ParticleRod and their anchored ParticleConstraint forms.
    let d = pB - pA;
    let length2 = dot3(d, d);
    // Coincident ends have no direction to push along: skipped.
    // safeLength (shaders/shared/safeLength.wgsl): a link whose squared length overflows stays finite.
    let currentLength = safeLength(d, length2);
    let direction = d / currentLength;
    let stretch = currentLength - link.length;
    let isCable = link.kind == LINK_CABLE;
    // A cable only pulls: a contact once it is (within the skin of) taut.
    // A rod pulls when stretched and pushes when compressed, never bouncing.
    // No equality test: at exactly its length it is a contact with no depth.
    let rodPushes = !isCable & !(currentLength > link.length);
    let linkContact = (length2 > 0.0) & (!isCable | (stretch > -params.skin));
    n = select(n, select(direction, -direction, rodPushes), isLink);
    penetration = select(penetration, select(stretch, link.length - currentLength, rodPushes), isLink);
    restitution = select(restitution, select(0.0, link.restitution, isCable), isLink);
    isContact = select(isContact, linkContact, isLink);
  }
  if (MODE == MODE_LIST) {
    if (isContact) {
      if (listed < MAX_LISTED) { deltas[2u * me + listed / 4u][listed % 4u] = other; }
      listed += 1u;
    }
  } else {
    let selfAcceleration = selfAccelerationRadius.xyz;
    let selfInverseMass = selfPositionInverseMass.w;
    visitContact(
      isContact,
      selfIsA,
      a,
      b,
      select(otherVelocity, selfVelocity, selfIsA),
      select(otherAcceleration, selfAcceleration, selfIsA),
      select(otherInverseMass, selfInverseMass, selfIsA),
      select(selfVelocity, otherVelocity, selfIsA),
      select(selfAcceleration, otherAcceleration, selfIsA),
      select(selfInverseMass, otherInverseMass, selfIsA),
      n,
      penetration,
      restitution,
    );
  }
}

// The neighbours of particle `me` in the 27 cells around its own, cell by
// cell, by index, found by walking the grid (none unless `walking`).
fn walkGrid(me: u32, walking: bool) {
  let home = cells[me];
  var walkCell = select(27u, 0u, walking);
  var cell = home.xyz;
  var entry = 0u;
  var entryEnd = 0u;
  loop {
    var other = NO_PARTICLE;
    loop {
      if (entry < entryEnd) {
        let candidate = entries[entry];
        let candidateCell = cells[params.count + entry].xyz;
        entry += 1u;
        // Only particles in this very cell: another cell in the same bucket is a hash collision.
        if (candidate != me && all(candidateCell == cell)) {
          other = candidate;
          break;
        }
        continue;
      }
      if (walkCell >= 27u) { break; }
      cell = home.xyz + vec3i(i32(walkCell % 3u) - 1, i32((walkCell / 3u) % 3u) - 1, i32(walkCell / 9u) - 1);
      let bucket = bucketOf(cell, params.bucketMask);
      entry = starts[bucket];
      entryEnd = starts[bucket + 1u];
      walkCell += 1u;
    }
    if (other == NO_PARTICLE) { break; }
    visitOther(me, other, Link(), false);
  }
}

// MODE_COUNT's filter of a particle's candidates (visitParticle): how many
// are in reach (the near list's length, its first NEAR_ROOM written) and how
// many the wide list keeps.
var<private> nearCount: u32;
var<private> wideCount: u32;

// What the filter of one particle's candidates reads besides them.
struct FilterSite {
  selfPosition: vec3f,
  myRadius: f32,
  nearFirst: u32,
  widening: bool,
  listFirst: u32,
  found: u32,
}

// One candidate of the filter, in list order, read from `readAt` (a lane
// past the list's end: `valid` false, nothing reached, written back).
fn filterCandidate(site: FilterSite, candidate: u32, copied: vec4f, readAt: u32, valid: bool) {
  let reaches = mayReach(site.selfPosition, site.myRadius, copied.xyz, copied.w) & vec2<bool>(valid);
  if (reaches.x & (nearCount < NEAR_ROOM)) { activeCounts[site.nearFirst + nearCount] = candidate; }
  nearCount += select(0u, 1u, reaches.x);
  let keep = site.widening & reaches.y;
  // Not kept (or no room): written back where it was read.
  activeCounts[select(readAt, site.listFirst + site.found + wideCount, keep & (site.found + wideCount < CANDIDATES))] =
    candidate;
  wideCount += select(0u, 1u, keep);
}

// The contacts of particle `me` (`gridded`: in the grid), in order: its links
// in link order, then its neighbours, each pair seen the same way from both
// sides (A is the lower index) so that the impulses are equal and opposite bit
// for bit.
fn visitParticle(me: u32, gridded: bool) {
  closing = 0u;
  penetrating = 0u;
  moveSum = vec3f(0.0);
  velocitySum = vec3f(0.0);
  listed = 0u;
  selfPositionInverseMass = particlePositionInverseMass(me);
  selfVelocity = particleVelocityDamping(me).xyz;
  selfAccelerationRadius = particleAccelerationRadius(me);
  let selfPosition = selfPositionInverseMass.xyz;
  let myRadius = selfAccelerationRadius.w;
  // Immovable (and dead) particles are never moved: no contacts to gather.
  // MODE_LIST lists the particle-particle contacts of every particle in the grid.
  let moving = selfPositionInverseMass.w > 0.0;
  let wantsNeighbours = gridded & select(moving, myRadius >= 0.0, MODE == MODE_LIST);
  var linkFirst = 0u;
  var linkCount = 0u;
  if (LINKS) {
    linkFirst = linkIndex[me];
    linkCount = select(0u, linkIndex[me + 1u] - linkFirst, moving & (MODE != MODE_LIST));
  }

  // The neighbours to visit, from a list: MODE_COUNT's near list (the
  // candidates in reach, resolving) or the candidate list itself (the pair
  // test finds no contact with a candidate out of reach: the same contacts in
  // the same order); past the candidate lists' room, from the walk of the grid.
  var walking = false;
  var listAt = 0u;
  var items = 0u;
  if (wantsNeighbours) {
    // The candidates' word: their number; with a wide list (kept lists), also
    // 1 + the number of those within reach + skin + margin, above 16 bits,
    // listed in the candidate list's room after the candidates.
    let foundWord = activeCounts[params.capacity + me];
    let wide = foundWord >> 16u;
    let found = select(foundWord & 0xffffu, foundWord, wide == 0u);
    let nearCounts = (2u + CANDIDATES) * params.capacity;
    let nearFirst = nearCounts + params.capacity + me * NEAR_ROOM;
    let listFirst = 2u * params.capacity + me * CANDIDATES;
    walking = found > CANDIDATES;
    // The wide list while no particle has moved past margin / 2 since it was
    // made (the stale word, set by an earlier iteration's resolve), else the
    // candidates: the same pairs in reach, in the same order.
    let useWide = (wide != 0u) && !(activeCounts[staleWord()] < params.iteration);
    let listStart = listFirst + select(0u, found, useWide);
    let listCount = select(found, wide - 1u, useWide);
    var kept = NEAR_ROOM + 1u;
    if (MODE == MODE_COUNT) {
      // The near list for MODE_RESOLVE, as much as fits; the step's first count
      // with kept lists also writes the wide list, if it fits (each entry at or
      // before the one read, so never over one still to be read).
      let widening = (params.margin > 0.0) & (params.iteration == 0u) & !walking;
      nearCount = 0u;
      wideCount = 0u;
      // Four candidates a loop iteration, their reads issued before any of
      // them is tested: one at a time, the software adapter waits out each
      // scattered read in turn, and pays the loop's own cost per candidate.
      // Past the list's end a lane re-reads its last candidate, reaches
      // nothing and writes it back where it is.
      let filtered = select(listCount, 0u, walking);
      let last = max(filtered, 1u) - 1u;
      let site = FilterSite(selfPosition, myRadius, nearFirst, widening, listFirst, found);
      for (var j = 0u; j < filtered; j += 4u) {
        let at = min(vec4u(j, j + 1u, j + 2u, j + 3u), vec4u(last)) + listStart;
        let candidates = vec4u(activeCounts[at.x], activeCounts[at.y], activeCounts[at.z], activeCounts[at.w]);
        let copied0 = copiedPositionRadius(candidates.x);
        let copied1 = copiedPositionRadius(candidates.y);
        let copied2 = copiedPositionRadius(candidates.z);
        let copied3 = copiedPositionRadius(candidates.w);
        filterCandidate(site, candidates.x, copied0, at.x, true);
        filterCandidate(site, candidates.y, copied1, at.y, j + 1u < filtered);
        filterCandidate(site, candidates.z, copied2, at.z, j + 2u < filtered);
        filterCandidate(site, candidates.w, copied3, at.w, j + 3u < filtered);
      }
      if (widening) {
        activeCounts[params.capacity + me] = select(found, found | ((wideCount + 1u) << 16u), found + wideCount <= CANDIDATES);
      }
      activeCounts[nearCounts + me] = nearCount;
      kept = nearCount;
      // The contacts counted from the copy (the lines the filter just read):
      // the near list, or past its room the list itself (the exact test finds
      // no contact out of reach), so the contacts (and the bits) visitOther
      // would find, without the records or the square root of every candidate.
      let countFromNear = nearCount <= NEAR_ROOM;
      let countAt = select(listStart, nearFirst, countFromNear);
      for (var j = 0u; j < select(select(listCount, nearCount, countFromNear), 0u, walking); j++) {
        let candidate = activeCounts[countAt + j];
        let other = candidate;
        let copied = copiedPositionRadius(candidate);
        let selfIsA = me < other;
        let otherVelocity = copiedVelocityInverseMass(candidate).xyz;
        let sphere = sphereContact(
          select(copied.xyz, selfPosition, selfIsA),
          select(copied.w, myRadius, selfIsA),
          select(selfPosition, copied.xyz, selfIsA),
          select(myRadius, copied.w, selfIsA),
        );
        countContact(
          sphere.isContact,
          select(otherVelocity, selfVelocity, selfIsA),
          select(selfVelocity, otherVelocity, selfIsA),
          sphere.normal,
          sphere.penetration,
        );
      }
    }
    if (MODE == MODE_RESOLVE) { kept = activeCounts[nearCounts + me]; }
    let fromNear = kept <= NEAR_ROOM;
    listAt = select(listStart, nearFirst, fromNear);
    // MODE_COUNT counted its listed neighbours above.
    items = select(select(listCount, kept, fromNear), 0u, walking | (MODE == MODE_COUNT));
  }
  if (MODE == MODE_LIST) {
    deltas[2u * me] = vec4u(NO_PARTICLE);
    deltas[2u * me + 1u] = vec4u(NO_PARTICLE);
  }

  // The links, then the listed neighbours (MODE_COUNT: the links alone, none
  // without links: compiled out, as the software adapter would run the body
  // once, and read a record, where no invocation enters the loop).
  if (LINKS | (MODE != MODE_COUNT)) {
    for (var j = 0u; j < linkCount + items; j++) {
      let isLink = LINKS & (j < linkCount);
      var link = Link();
      var other = activeCounts[listAt + select(j - linkCount, 0u, isLink)];
      if (LINKS) {
        link = links[linkIndex[params.linkRefs + linkFirst + select(0u, j, isLink)]];
        other = select(other, select(link.a, link.b, me == link.a), isLink);
      }
      visitOther(me, other, link, isLink);
    }
  }

  // Past the candidate lists' room: the walk of the grid, in a loop of its own
  // (apart from the list's loop above, whose iterations it would otherwise
  // weigh down).
  walkGrid(me, walking);

  if (MODE == MODE_LIST) {
    activeCounts[me] = listed;
  } else if (MODE == MODE_COUNT) {
    activeCounts[me] = min(closing, 0xffffu) | (min(penetrating, 0xffffu) << 16u);
  } else {
    // With kept lists: the bound on this particle's displacement since the
    // step's first count, the corrections' lengths (and their rounding)
    // plus the rounding of adding them to the position (half an ulp of each
    // coordinate); then the stale word, set once (a plain store: every
    // invocation of this dispatch writes the same value, none of them reads it).
    var moved = 0.0;
    if (params.margin > 0.0) {
      let before = select(bitcast<vec4f>(deltas[2u * me]).w, 0.0, params.iteration == 0u);
      let along = abs(moveSum);
      let around = abs(selfPosition) + along;
      moved = before + sqrt(dot3(moveSum, moveSum)) * 1.001 + (around.x + around.y + around.z) * 2.4e-7 +
        (along.x + along.y + along.z) * 2.4e-7;
      let stale = activeCounts[staleWord()];
      // Not within the bound (NaN included), and not already stale from an earlier iteration.
      if (!(moved <= 0.5 * params.margin) & !(stale < params.iteration)) {
        activeCounts[staleWord()] = params.iteration;
      }
    }
    deltas[2u * me] = bitcast<vec4u>(vec4f(moveSum, moved));
    deltas[2u * me + 1u] = vec4u(bitcast<vec3u>(velocitySum), me);
  }
}

// Writes the candidates of `me`, grid entry `slot`, as particles (as many as
// fit), and their number: the 27 cells as 9 rows along x, each
// row's three buckets one run of the grid's entries (three runs where it
// wraps around the table's end). In a run the buckets come in order, each by
// index: the walk's order.
fn listCandidates(me: u32, slot: u32) {
  let home = cells[params.count + slot];
  let first = 2u * params.capacity + me * CANDIDATES;
  let mask = params.bucketMask;
  var found = 0u;
  var row = 0u;
  // The next bucket of the row, and how many of its three are left.
  var bucket = 0u;
  var left = 0u;
  var y = 0;
  var z = 0;
  loop {
    if (left == 0u) {
      if (row >= 9u) { break; }
      y = home.y + i32(row % 3u) - 1;
      z = home.z + i32(row / 3u) - 1;
      bucket = (rowOf(y, z) + bitcast<u32>(home.x - 1)) & mask;
      left = 3u;
      row += 1u;
    }
    let buckets = select(1u, 3u, left == 3u && bucket + 2u <= mask);
    let runEnd = starts[bucket + buckets];
    for (var s = starts[bucket]; s < runEnd; s++) {
      let cell = cells[params.count + s];
      let other = entries[s];
      let isCandidate = (cell.y == y) & (cell.z == z) & (abs(cell.x - home.x) <= 1) & (other != me);
      // Without a branch: one not kept is written to the count's word, written last.
      activeCounts[select(params.capacity + me, first + found, isCandidate & (found < CANDIDATES))] = other;
      found += select(0u, 1u, isCandidate);
    }
    bucket = (bucket + buckets) & mask;
    left -= buckets;
  }
  activeCounts[params.capacity + me] = found;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(invocation: Invocation) {
  let t = particleIndex(invocation);
  if (MODE == MODE_CANDIDATES) {
    if (t >= params.count) { return; }
    // The grid's entries: the particles in it, sorted by cell.
    var inGrid = 0u;
    if (params.pairs != 0u) { inGrid = starts[params.bucketMask + 1u]; }
    // Fresh lists: not stale (no other invocation of this dispatch reads the word).
    if ((t == 0u) & (params.pairs != 0u)) { activeCounts[staleWord()] = NO_PARTICLE; }
    // The position copy of particle t (in particle order: the records read and the copy written in sequence).
    // Its entry lane is itself, which every resolve writes before an apply pass reads it.
    copyParticle(t);
    if (t < inGrid) { listCandidates(entries[t], t); }
    return;
  }
  if (t >= params.count) { return; }
  visitParticle(t, (params.pairs != 0u) && (cells[t].w >= 0));
}
