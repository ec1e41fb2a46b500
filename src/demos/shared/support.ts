/**
 * Plain words for the ways WebGPU can be missing, shown on the page instead
 * of a blank canvas or a console error.
 */

export interface SupportProblem {
  title: string;
  /** Paragraphs. */
  lines: string[];
}

const HOW_TO_ENABLE = [
  'Chrome and Edge 113 or later have WebGPU on by default on Windows, macOS and ChromeOS. ' +
    'On Linux, enable chrome://flags/#enable-unsafe-webgpu and chrome://flags/#enable-vulkan ' +
    '(or start Chromium with --enable-unsafe-webgpu --enable-features=Vulkan).',
  'Firefox 141 or later has it on Windows; elsewhere set dom.webgpu.enabled to true in about:config (Firefox Nightly).',
  'Safari 26 has it on macOS, iOS and iPadOS; earlier versions: Develop → Feature Flags → WebGPU.',
];

/** null when `navigator.gpu` exists. */
export function missingWebGpu(): SupportProblem | null {
  if (typeof navigator !== 'undefined' && 'gpu' in navigator && navigator.gpu) return null;
  const lines = ['This page draws with WebGPU, and this browser does not offer it (navigator.gpu is missing).'];
  if (typeof window !== 'undefined' && !window.isSecureContext) {
    lines.push(
      'WebGPU exists only on secure pages: open this page over https://, or from http://localhost or http://127.0.0.1.',
    );
  }
  lines.push(...HOW_TO_ENABLE);
  return { title: 'WebGPU is not available in this browser', lines };
}

/** navigator.gpu exists but gave no adapter or no device. */
export function noAdapter(detail: string): SupportProblem {
  return {
    title: 'WebGPU is here, but no GPU adapter is',
    lines: [
      `The browser offers WebGPU but would not hand out a GPU (${detail}).`,
      "The GPU or its driver may be on the browser's blocklist, WebGPU may be turned off by a policy, or the GPU process may have crashed. " +
        'In Chrome, chrome://gpu says whether WebGPU is "Hardware accelerated"; chrome://flags/#enable-unsafe-webgpu lets a blocklisted GPU through.',
      'Restarting the browser can help after a GPU process crash.',
    ],
  };
}
