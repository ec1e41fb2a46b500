/** Acquires a device as a user's script does, prints where it came from, and exits (test/nodeDevice.test.ts). */
import { acquireDevice } from '../../src/node/device';

const { device, adapterInfo } = await acquireDevice();
process.stdout.write(`${JSON.stringify({ software: adapterInfo.software, source: adapterInfo.source })}\n`);
device.destroy();
