// The particles a ParticlePass draws by index, in the source's own order:
// the drawn-th particle is the drawn-th record (shaders/render/records.wgsl).

fn lookOf(drawn: u32) -> Look {
  return recordLook(drawn);
}
