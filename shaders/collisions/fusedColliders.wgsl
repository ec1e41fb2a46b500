// The colliders fused into the step (a system with colliders and neither
// links nor particle-particle contacts, and no collider that sticks):
// shaders/step/integrate.wgsl hands each particle's stepped position and velocity
// to `worldColliders`, generated for the collider set's composition
// (src/core/collisions/colliderComposition.ts): one call a collider, in the
// set's order, of its kind's function (shaders/collisions/colliderKinds.wgsl) with its
// inside, kill, bounce and friction flags written in. No loop over the table:
// each particle does only its colliders' work (a collider without restitution
// or friction skips that arithmetic), and the record is read and written once
// a step instead of twice.
// Prepended: the Collider struct, shaders/collisions/worldContact.wgsl,
// shaders/collisions/colliderKinds.wgsl, and the table's declaration (a uniform array of
// the set's size, COLLIDER_COUNT; its group and binding printed by
// src/shaders/index.ts); appended: the generated `worldColliders`.

const WORLD_COLLIDERS: bool = true;
// The contact skin (ContactSettings.skin), fixed per system.
override SKIN: f32 = 0.0;
