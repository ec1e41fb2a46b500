// The step without colliders fused in (shaders/collisions/fusedColliders.wgsl is the
// other choice): nothing touches the stepped particle. Inlined away.

const WORLD_COLLIDERS: bool = false;
// Nothing touches the particle (shaders/collisions/fusedColliders.wgsl sets it there).
var<private> worldTouched: bool = false;

fn worldColliders(p: ptr<function, vec3f>, v: ptr<function, vec3f>, a: vec3f, r: f32, dt: f32) -> bool {
  return false;
}
