/**
 * The GPU side of src/core/collisions/world.ts: after each integration
 * dispatch the system records, in the same order as the CPU twin,
 *
 * 1. the colliders pass, once;
 * 2. with links or particle-particle collisions: the grid rebuild and each
 *    particle's candidates in it, then for each Jacobi iteration a count
 *    dispatch, a resolve dispatch and a colliders pass that applies the
 *    corrections.
 *
 * Owns the passes and the collider buffer; nothing here submits.
 */
import {
  colliderComposition,
  colliderCompositionKey,
  type ColliderComposition,
} from '../../core/collisions/colliderComposition';
import { hasStickCollider, prepareColliders, type PackedColliders } from '../../core/collisions/colliders';
import { gridSpacing } from '../../core/collisions/grid';
import { noLinks, type PackedLinks } from '../../core/collisions/links';
import { RadiusBound, type ContactSettings } from '../../core/collisions/world';
import { CollidePass } from './collidePass';
import { ContactPass, type ContactModeName, type ContactStep } from './contactPass';
import { GridPass } from './gridPass';
import { computeLayout } from '../shared/kernel';
import type { ParticleBuffer } from '../shared/particleBuffer';

/** The fused colliders' table, a uniform array (shaders/collisions/fusedColliders.wgsl). */
export const FUSED_COLLIDERS_BINDING = 'uniform';

/**
 * What the step needs to run the colliders fused into it
 * (shaders/collisions/fusedColliders.wgsl, src/gpu/step/fusedPipelines.ts): the set's
 * composition, its table as a bind group (`layout`), and the skin.
 */
export interface FusedColliders {
  readonly composition: ColliderComposition;
  readonly key: string;
  readonly layout: GPUBindGroupLayout;
  readonly bindGroup: GPUBindGroup;
  /** The table `bindGroup` binds: a step with no group to spare binds it beside the forces'. */
  readonly table: GPUBuffer;
  readonly skin: number;
}

export class GpuCollisions {
  private colliderBuffer: GPUBuffer;
  private colliderCount = 0;
  private contactPass: ContactPass | null = null;
  private gridPass: GridPass | null = null;
  private readonly noDeltas: GPUBuffer;
  private linkCount = 0;
  private destroyed = false;
  /** The colliders' table as the fused step binds it (a uniform); null without colliders. */
  private fusedColliders: FusedColliders | null = null;
  /** The colliders pass, created on first need: a system whose colliders run fused into the step never compiles it. */
  private collidePass: CollidePass | null = null;
  private readonly fusedLayout: GPUBindGroupLayout;

  private constructor(
    private readonly device: GPUDevice,
    private readonly particles: ParticleBuffer,
    readonly settings: ContactSettings,
    /** The largest radius written to the system, which sizes the grid's cells. */
    readonly radius: RadiusBound,
    private readonly workgroupSize: number,
  ) {
    this.colliderBuffer = this.createColliderBuffer(prepareColliders([]));
    this.noDeltas = device.createBuffer({ label: 'GpuCollisions.noDeltas', size: 32, usage: GPUBufferUsage.STORAGE });
    this.fusedLayout = computeLayout(device, 'GpuCollisions.fusedLayout', [FUSED_COLLIDERS_BINDING]);
    if (settings.particleCollisions) this.ensureContacts();
  }

  /** Created synchronously: the caller's error scopes catch any failure. */
  static create(
    device: GPUDevice,
    particles: ParticleBuffer,
    settings: ContactSettings,
    radius: RadiusBound,
    workgroupSize: number,
  ): GpuCollisions {
    return new GpuCollisions(device, particles, settings, radius, workgroupSize);
  }

  private createColliderBuffer(colliders: PackedColliders): GPUBuffer {
    const bytes = colliders.bytes;
    const buffer = this.device.createBuffer({
      label: 'GpuCollisions.colliders',
      size: bytes.byteLength,
      // A storage buffer for the colliders pass, a uniform for the step with the colliders fused in.
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.device.queue.writeBuffer(buffer, 0, bytes);
    return buffer;
  }

  /** The colliders pass, created and bound on first need (inside the caller's error scopes). */
  private colliders(): CollidePass {
    if (!this.collidePass) {
      this.collidePass = CollidePass.create(this.device, this.particles, this.workgroupSize);
      this.bindCollidePass();
    }
    return this.collidePass;
  }

  /** Binds the colliders pass to the colliders and the contact resolver's corrections (placeholders without). */
  private bindCollidePass(): void {
    const contacts = this.contactPass;
    this.collidePass?.bind(this.colliderBuffer, contacts?.deltas ?? this.noDeltas, contacts?.positionCopy ?? 0);
  }

  /** The contact and grid passes, created on first need. */
  private ensureContacts(): ContactPass {
    if (!this.contactPass) {
      const grid = this.settings.particleCollisions;
      this.contactPass = ContactPass.create(this.device, this.particles, this.workgroupSize, grid);
      this.contactPass.setLinks(noLinks(this.particles.capacity));
      if (this.settings.particleCollisions) {
        this.gridPass = GridPass.create(this.device, this.particles, this.workgroupSize);
        this.contactPass.useGrid(this.gridPass);
      }
      this.bindCollidePass();
    }
    return this.contactPass;
  }

  /** Replaces the colliders (already validated). */
  setColliders(colliders: PackedColliders): void {
    this.colliderBuffer.destroy();
    this.colliderBuffer = this.createColliderBuffer(colliders);
    this.colliderCount = colliders.count;
    this.bindCollidePass();
    const composition = colliderComposition(colliders);
    this.fusedColliders =
      colliders.count === 0 || hasStickCollider(colliders)
        ? null
        : {
            composition,
            key: colliderCompositionKey(composition),
            layout: this.fusedLayout,
            bindGroup: this.device.createBindGroup({
              label: 'GpuCollisions.fusedBindGroup',
              layout: this.fusedLayout,
              entries: [{ binding: 0, resource: { buffer: this.colliderBuffer } }],
            }),
            table: this.colliderBuffer,
            skin: Math.fround(this.settings.skin),
          };
  }

  /**
   * The colliders to fuse into the step, when they are all a step has to do
   * here (colliders, and neither links nor particle-particle contacts); null
   * otherwise, and the colliders pass runs after the step.
   */
  get fused(): FusedColliders | null {
    return this.hasContacts ? null : this.fusedColliders;
  }

  /** Replaces the links (already validated). */
  setLinks(links: PackedLinks): void {
    if (links.records.count === 0 && !this.contactPass) return;
    this.ensureContacts().setLinks(links);
    this.linkCount = links.records.count;
  }

  private get pairs(): boolean {
    return this.settings.particleCollisions && this.radius.value > 0;
  }

  get hasContacts(): boolean {
    return this.linkCount > 0 || this.pairs;
  }

  /** True when a step has anything to do here. */
  get active(): boolean {
    return this.colliderCount > 0 || this.hasContacts;
  }

  private contactStep(count: number, dt: number): ContactStep {
    const skin = Math.fround(this.settings.skin);
    return {
      count,
      dt: Math.fround(dt),
      skin,
      restitution: Math.fround(this.settings.restitution),
      inverseCellSize: this.pairs ? gridSpacing(this.radius.value, skin).inverseCellSize : null,
      // World colliders move particles between the iterations too: lists not kept.
      keepLists: this.colliderCount === 0,
    };
  }

  /**
   * Records what follows one integration step of `dt` over particles [0,
   * count) (a pool with emitters: every slot, a parked free slot colliding
   * with nothing).
   */
  encode(encoder: GPUCommandEncoder, dt: number, count: number): void {
    if (this.colliderCount > 0) this.colliders().encode(encoder, this.collideStep(count, dt), false);
    if (!this.hasContacts) return;
    this.encodeGrid(encoder, dt, count);
    for (let k = 0; k < this.settings.iterations; k++) this.encodeIteration(encoder, dt, count);
  }

  private collideStep(count: number, dt: number) {
    return { count, colliderCount: this.colliderCount, dt: Math.fround(dt), skin: Math.fround(this.settings.skin) };
  }

  /**
   * The grid rebuild and the candidate lists that start the contact iterations
   * (nothing without particle-particle collisions).
   */
  encodeGrid(encoder: GPUCommandEncoder, dt: number, count: number): void {
    const step = this.contactStep(count, dt);
    if (step.inverseCellSize === null || !this.gridPass) return;
    const contacts = this.ensureContacts();
    this.gridPass.encode(encoder, count, step.inverseCellSize);
    contacts.encode(encoder, 'candidates', step);
  }

  /**
   * One Jacobi iteration: count the active contacts, resolve them, apply the
   * corrections in a colliders pass.
   */
  encodeIteration(encoder: GPUCommandEncoder, dt: number, count: number): void {
    const contacts = this.ensureContacts();
    const step = this.contactStep(count, dt);
    contacts.encode(encoder, 'count', step);
    contacts.encode(encoder, 'resolve', step);
    this.colliders().encode(encoder, this.collideStep(count, dt), true);
  }

  /**
   * For the tests: rebuilds the grid over the current state and records one
   * contact dispatch in `mode` (e.g. 'list'); returns the buffers it wrote.
   */
  encodeProbe(encoder: GPUCommandEncoder, mode: ContactModeName, dt: number, count: number): ContactPass {
    const contacts = this.ensureContacts();
    this.encodeGrid(encoder, dt, count);
    contacts.encode(encoder, mode, this.contactStep(count, dt));
    return contacts;
  }

  /** The grid's buffers (null without particle-particle collisions). */
  get grid(): GridPass | null {
    return this.gridPass;
  }

  /** The contact resolver's buffers (null until the first step or link that needs them). */
  get contacts(): ContactPass | null {
    return this.contactPass;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.collidePass?.destroy();
    this.contactPass?.destroy();
    this.gridPass?.destroy();
    this.colliderBuffer.destroy();
    this.noDeltas.destroy();
  }
}
