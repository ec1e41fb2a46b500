/** The `npm run simulate` program; the command itself lives in src/cli/simulate.ts. */
import { main } from '../src/cli/simulate';

process.exitCode = await main(process.argv.slice(2));
