/** The `npm run render` program; the command itself lives in src/cli/render.ts. */
import { main } from '../src/cli/render';

process.exitCode = await main(process.argv.slice(2));
