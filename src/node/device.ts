/**
 * Device acquisition in Node through Dawn's bindings (the `webgpu` package, an
 * optional peer dependency of Sparkworks): a hardware adapter first, then
 * SwiftShader, the software Vulkan that Chromium packages ship, when no
 * hardware adapter exists. On Linux, where Dawn runs on Vulkan, a machine
 * with no Vulkan driver installed goes straight to SwiftShader: asking the
 * loader for drivers it does not have makes Dawn print its failure.
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { create, globals } from 'webgpu';
import {
  NoAdapterError,
  describeAdapter,
  requestDevice,
  type AcquireOptions,
  type AcquiredDevice,
} from '../gpu/device/device';

/** Where Debian's `chromium` package puts SwiftShader's Vulkan ICD, tried when no hardware adapter exists. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** Where SwiftShader's ICD is looked for, in order: Debian's chromium, Ubuntu's chromium snap, Fedora's chromium. */
export const SWIFTSHADER_ICDS = [
  SWIFTSHADER_ICD,
  '/snap/chromium/current/usr/lib/chromium-browser/vk_swiftshader_icd.json',
  '/usr/lib64/chromium-browser/vk_swiftshader_icd.json',
] as const;

/** What to install when neither a driver nor SwiftShader is found. */
const INSTALL = 'on Debian or Ubuntu: apt-get install chromium libvulkan1';

/**
 * Dawn instances live as long as the process: collecting one while its
 * adapter's worker threads still run has crashed Node here (a corrupted mutex).
 */
const dawnInstances: GPU[] = [];
function keep(instance: GPU): GPU {
  dawnInstances.push(instance);
  return instance;
}

/** The folders the Vulkan loader reads driver manifests from on Linux (its XDG search path). */
function icdFolders(): string[] {
  const env = process.env;
  const config = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':');
  const data = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':');
  const home = env.XDG_DATA_HOME || join(homedir(), '.local/share');
  return [...config, '/etc', ...data, home].map((folder) => join(folder, 'vulkan/icd.d'));
}

/**
 * Whether Dawn may find a hardware adapter: anywhere but Linux, yes (Metal,
 * D3D); on Linux when the user names drivers (VK_ICD_FILENAMES or
 * VK_DRIVER_FILES) or the loader's folders hold a driver manifest.
 */
export function mayHaveHardwareDriver(): boolean {
  if (process.platform !== 'linux') return true;
  if (process.env.VK_ICD_FILENAMES || process.env.VK_DRIVER_FILES) return true;
  return icdFolders().some((folder) => {
    try {
      return readdirSync(folder).some((name) => name.endsWith('.json'));
    } catch {
      return false;
    }
  });
}

async function nodeAdapter(options: AcquireOptions): Promise<{ adapter: GPUAdapter; source: string }> {
  // Dawn's objects (GPUBufferUsage and friends) become globals, as in a browser.
  Object.assign(globalThis, globals);
  const request = { powerPreference: options.powerPreference ?? 'high-performance' } as const;
  if (!options.forceSoftware && mayHaveHardwareDriver()) {
    const adapter = await keep(create([])).requestAdapter(request);
    if (adapter && !describeAdapter(adapter, '').software)
      return { adapter, source: 'webgpu (Dawn), hardware adapter' };
    if (adapter) return { adapter, source: 'webgpu (Dawn), software adapter (no hardware adapter found)' };
  }
  const icd = SWIFTSHADER_ICDS.find((path) => existsSync(path));
  if (!icd) {
    throw new NoAdapterError(
      `no WebGPU adapter: no GPU driver, and no SwiftShader (looked for ${SWIFTSHADER_ICDS.join(', ')}); ${INSTALL}`,
    );
  }
  // The Vulkan loader reads VK_ICD_FILENAMES when Dawn opens a new instance.
  const previous = process.env.VK_ICD_FILENAMES;
  process.env.VK_ICD_FILENAMES = icd;
  try {
    const adapter = await keep(create([])).requestAdapter(request);
    if (adapter) return { adapter, source: `webgpu (Dawn), SwiftShader fallback (${icd})` };
  } finally {
    if (previous === undefined) delete process.env.VK_ICD_FILENAMES;
    else process.env.VK_ICD_FILENAMES = previous;
  }
  throw new NoAdapterError(
    `no WebGPU adapter: SwiftShader's ICD at ${icd} did not load (the Vulkan loader is missing?); ${INSTALL}`,
  );
}

/**
 * Acquires a device in Node with the adapter's largest buffer and compute
 * limits: a hardware adapter when Dawn finds one (unless `forceSoftware`),
 * else SwiftShader. Throws `NoAdapterError` when neither exists, saying in
 * one line what to install.
 */
export async function acquireDevice(options: AcquireOptions = {}): Promise<AcquiredDevice> {
  const { adapter, source } = await nodeAdapter(options);
  return requestDevice(adapter, source);
}
