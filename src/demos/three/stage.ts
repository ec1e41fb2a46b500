/**
 * The three.js side of the demo: a WebGPURenderer on the page's canvas, a
 * scene (a ball on a floor, four nozzles, a floating knot, lights), three's
 * PerspectiveCamera and OrbitControls, and the render target the scene is
 * drawn into, so that Sparkworks can draw into the same frame before three
 * puts it on the canvas.
 *
 * Why a render target: when three renders straight to the canvas, its depth
 * buffer is its own and gone by the time it returns. Rendered into a target
 * of ours with a DepthTexture, the colour and the depth stay, and Sparkworks'
 * ParticlePass draws into both with loadOp 'load': its sparks are tested
 * against the depth of three's meshes (and write none, as in every demo).
 * Then a QuadMesh copies the target to the canvas, which is also where three
 * applies its output colour space and tone mapping.
 *
 * Two things the example needs from three are not in @types/three, and are
 * reached (and checked at run time) in one place each: the backend's
 * `device` (threeDevice) and the GPUTexture the backend made for a texture
 * (gpuTexture).
 */
import * as THREE from 'three/webgpu';
import { texture } from 'three/tsl';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { DrawView } from 'sparkworks/render';

/** The ball the sparks rain on: a three.js sphere and a Sparkworks sphere collider of the same size. */
export const BALL = { center: [0, 1.3, 0] as const, radius: 1.3 };
/** The nozzles on the floor around the ball: a three.js cylinder each and a box collider around it. */
export const NOZZLE = { ring: 3.4, radius: 0.14, height: 0.32, count: 4 };

/** Where nozzle `i` stands on the floor (x, z). */
export function nozzleXZ(i: number): [number, number] {
  const heading = ((i + 0.5) / NOZZLE.count) * Math.PI * 2;
  return [Math.cos(heading) * NOZZLE.ring, Math.sin(heading) * NOZZLE.ring];
}

/** Thrown when three.js could not start its WebGPU backend (it would draw with WebGL 2, which Sparkworks cannot share). */
export class NoWebGpuBackendError extends Error {
  override readonly name = 'NoWebGpuBackendError';
}

/**
 * The GPUDevice three.js draws with. WebGPUBackend keeps it as `device`
 * (documented in three's source; @types/three does not declare it), set by
 * `renderer.init()`.
 */
export function threeDevice(renderer: THREE.WebGPURenderer): GPUDevice {
  const backend = renderer.backend;
  if (!(backend instanceof THREE.WebGPUBackend)) {
    throw new NoWebGpuBackendError('three.js could not start WebGPU and fell back to WebGL 2');
  }
  const { device } = backend as THREE.WebGPUBackend & { device?: unknown };
  if (!(device instanceof GPUDevice)) throw new Error('three.js has no GPUDevice yet: await renderer.init() first');
  return device;
}

/**
 * The GPUTexture three.js made for `texture` (a render target's colour or
 * depth): the backend keeps it in its per-object data as `texture`.
 */
export function gpuTexture(renderer: THREE.WebGPURenderer, texture: THREE.Texture): GPUTexture {
  const backend = renderer.backend as unknown as { get(object: object): { texture?: unknown } };
  const gpu = backend.get(texture).texture;
  if (!(gpu instanceof GPUTexture)) {
    throw new Error(`three.js has not made ${texture.name || 'this texture'} on the GPU yet (initRenderTarget first)`);
  }
  return gpu;
}

const BACKGROUND = 0x05070c;

export class ThreeStage {
  readonly camera = new THREE.PerspectiveCamera(42, 1, 0.1, 200);
  private readonly controls: OrbitControls;
  private readonly scene = new THREE.Scene();
  /** three draws the scene here; Sparkworks draws its sparks into the same colour and depth. */
  private readonly target: THREE.RenderTarget;
  /** Copies the target to the canvas (three's output colour space and tone mapping). */
  private readonly output: THREE.QuadMesh;
  private readonly knot: THREE.Mesh;
  private readonly owned: { dispose(): void }[] = [];
  private readonly viewProjection = new THREE.Matrix4();
  /** Depth for sparks drawn over everything (depth test off): cleared each frame, never three's. */
  private openDepth: GPUTexture | null = null;
  private disposed = false;

  /** A renderer on `canvas`, its device started (`renderer.init()`), and the scene. */
  static async create(canvas: HTMLCanvasElement): Promise<ThreeStage> {
    const renderer = new THREE.WebGPURenderer({ canvas, antialias: false, alpha: false });
    try {
      await renderer.init();
      return new ThreeStage(renderer, threeDevice(renderer));
    } catch (error) {
      renderer.dispose();
      throw error;
    }
  }

  private constructor(
    readonly renderer: THREE.WebGPURenderer,
    /** three's device, which Sparkworks shares. three requested it, so three destroys it (renderer.dispose()). */
    readonly device: GPUDevice,
  ) {
    renderer.toneMapping = THREE.NeutralToneMapping;
    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.fog = new THREE.Fog(BACKGROUND, 18, 40);

    this.target = new THREE.RenderTarget(1, 1, {
      type: THREE.HalfFloatType,
      depthBuffer: true,
      depthTexture: new THREE.DepthTexture(1, 1, THREE.FloatType),
    });
    this.target.texture.name = 'three demo: scene colour';
    this.target.depthTexture!.name = 'three demo: scene depth';
    const copy = new THREE.MeshBasicNodeMaterial();
    copy.colorNode = texture(this.target.texture);
    this.output = new THREE.QuadMesh(copy);
    this.owned.push(this.target, copy);

    this.knot = this.add(
      new THREE.TorusKnotGeometry(0.55, 0.17, 128, 16),
      new THREE.MeshStandardMaterial({ color: 0x4f7dff, metalness: 0.35, roughness: 0.3 }),
    );
    this.knot.position.set(-3, 3, 0.8);
    this.buildScene();

    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.resetView();
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.minDistance = 3;
    this.controls.maxDistance = 40;
    this.resize();
    // Makes the target's textures now, so their formats are known before the first frame.
    renderer.initRenderTarget(this.target);
  }

  /** The camera where the page starts it. */
  resetView(): void {
    this.camera.position.set(7.5, 4.6, 8.5);
    this.controls.target.set(0, 1.2, 0);
    this.controls.update();
  }

  private add(geometry: THREE.BufferGeometry, material: THREE.Material): THREE.Mesh {
    const mesh = new THREE.Mesh(geometry, material);
    this.scene.add(mesh);
    this.owned.push(geometry, material);
    return mesh;
  }

  private buildScene(): void {
    const floor = this.add(
      new THREE.CircleGeometry(16, 64),
      new THREE.MeshStandardMaterial({ color: 0x222836, roughness: 0.85, metalness: 0.05 }),
    );
    floor.rotation.x = -Math.PI / 2;
    const grid = new THREE.GridHelper(32, 32, 0x34405a, 0x232b3d);
    grid.position.y = 0.002;
    this.scene.add(grid);
    this.owned.push(grid.geometry, grid.material as THREE.Material);

    const ball = this.add(
      new THREE.SphereGeometry(BALL.radius, 64, 32),
      new THREE.MeshStandardMaterial({ color: 0xd8dde8, metalness: 0.6, roughness: 0.25 }),
    );
    ball.position.set(...BALL.center);

    const nozzle = new THREE.CylinderGeometry(NOZZLE.radius * 0.7, NOZZLE.radius, NOZZLE.height, 24);
    const brass = new THREE.MeshStandardMaterial({ color: 0xc8903c, metalness: 0.8, roughness: 0.35 });
    this.owned.push(nozzle, brass);
    for (let i = 0; i < NOZZLE.count; i++) {
      const mesh = new THREE.Mesh(nozzle, brass);
      const [x, z] = nozzleXZ(i);
      mesh.position.set(x, NOZZLE.height / 2, z);
      this.scene.add(mesh);
    }

    this.scene.add(new THREE.HemisphereLight(0x9fb4ff, 0x2a1a10, 1.6));
    const sun = new THREE.DirectionalLight(0xfff1e0, 2.6);
    sun.position.set(5, 9, 4);
    this.scene.add(sun);
  }

  /** Colour and depth formats of the frame Sparkworks draws into (ParticlePass needs them). */
  get formats(): { color: GPUTextureFormat; depth: GPUTextureFormat } {
    return {
      color: gpuTexture(this.renderer, this.target.texture).format,
      depth: gpuTexture(this.renderer, this.target.depthTexture!).format,
    };
  }

  /** Follows the canvas's size in device pixels; `shiftCss` moves the picture left (e.g. out from under a panel). */
  resize(shiftCss = 0): void {
    const { renderer } = this;
    const canvas = renderer.domElement;
    const width = Math.max(1, canvas.clientWidth);
    const height = Math.max(1, canvas.clientHeight);
    if (renderer.getPixelRatio() !== devicePixelRatio) renderer.setPixelRatio(devicePixelRatio);
    const size = renderer.getSize(new THREE.Vector2());
    if (size.x !== width || size.y !== height) renderer.setSize(width, height, false);
    if (this.target.width !== canvas.width || this.target.height !== canvas.height) {
      this.target.setSize(canvas.width, canvas.height);
      this.openDepth?.destroy();
      this.openDepth = null;
    }
    this.camera.aspect = width / height;
    if (shiftCss !== 0) this.camera.setViewOffset(width, height, shiftCss, 0, width, height);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
  }

  /** Draws three's scene at simulated time `time` into the target (three submits its own commands). */
  render(time: number): void {
    this.controls.update();
    this.knot.rotation.set(time * 0.31, time * 0.47, 0);
    this.renderer.setRenderTarget(this.target);
    this.renderer.render(this.scene, this.camera);
    this.renderer.setRenderTarget(null);
  }

  /**
   * The view Sparkworks draws through: three's camera, after `render` (which
   * updates its world matrix and gives it WebGPU's clip depth, 0 to 1).
   */
  view(): DrawView {
    const { camera, target } = this;
    this.viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    return {
      viewProjection: this.viewProjection.elements,
      width: target.width,
      height: target.height,
      // Pixels per world unit at clip w = 1: the projection's y scale times half the height.
      focalPixels: (camera.projectionMatrix.elements[5]! * target.height) / 2,
    };
  }

  /**
   * A render pass over the frame three just drew: its colour loaded, and its
   * depth loaded (`depthTest`: sparks behind three's meshes are hidden) or a
   * cleared depth of our own (sparks over everything).
   */
  beginParticlePass(encoder: GPUCommandEncoder, depthTest: boolean): GPURenderPassEncoder {
    const color = gpuTexture(this.renderer, this.target.texture);
    const depth = depthTest ? gpuTexture(this.renderer, this.target.depthTexture!) : this.clearedDepth();
    return encoder.beginRenderPass({
      label: 'three demo: Sparkworks sparks over the three.js frame',
      colorAttachments: [{ view: color.createView(), loadOp: 'load', storeOp: 'store' }],
      depthStencilAttachment: {
        view: depth.createView(),
        depthLoadOp: depthTest ? 'load' : 'clear',
        depthClearValue: 1,
        depthStoreOp: depthTest ? 'store' : 'discard',
      },
    });
  }

  private clearedDepth(): GPUTexture {
    if (!this.openDepth) {
      this.openDepth = this.device.createTexture({
        label: 'three demo: open depth (sparks over everything)',
        size: [this.target.width, this.target.height],
        format: this.formats.depth,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      });
    }
    return this.openDepth;
  }

  /** Puts the frame on the canvas (three's output pass: colour space and tone mapping). */
  present(): void {
    this.output.render(this.renderer);
  }

  /** Frees the scene, the target and the controls, then the renderer, which destroys the device it requested. Safe twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controls.dispose();
    this.openDepth?.destroy();
    for (const thing of this.owned) thing.dispose();
    this.renderer.dispose();
  }
}
