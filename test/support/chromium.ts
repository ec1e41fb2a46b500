/**
 * Debian's Chromium, headless, with WebGPU on SwiftShader: how the browser
 * tests launch it (playwright-core; no browser is ever downloaded).
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  // Without it, headless Chromium's compositor never shows a WebGPU canvas:
  // screenshots and canvas reads come back transparent.
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
