/** The playground's examples: every scene file in public/scenes, served beside the demo pages' folder. */
export const EXAMPLES = [
  { id: 'ballistic', title: 'Ballistic' },
  { id: 'drag', title: 'Drag' },
  { id: 'forces', title: 'Forces' },
  { id: 'bouncing-ball', title: 'Bouncing ball' },
  { id: 'bridge', title: 'Bridge' },
  { id: 'cradle', title: 'Cradle' },
  { id: 'emitters', title: 'Emitters' },
  { id: 'fireworks', title: 'Fireworks' },
  { id: 'campfire', title: 'Campfire' },
  { id: 'rain', title: 'Rain' },
] as const;

export type ExampleId = (typeof EXAMPLES)[number]['id'];

export const DEFAULT_EXAMPLE: ExampleId = 'bouncing-ball';

export function isExample(id: string): id is ExampleId {
  return EXAMPLES.some((example) => example.id === id);
}

/** The example's text, as the file holds it. */
export async function fetchExample(id: ExampleId): Promise<string> {
  const url = new URL(`../scenes/${id}.json`, location.href);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return response.text();
}
