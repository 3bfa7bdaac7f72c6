// `npm run device -- …`: uploads a scan with its files as a technician's device would (see DEVICE_USAGE).
// stdout carries the scan id (or the scan as JSON with --json); progress and errors go to stderr.
import { DEVICE_USAGE, DeviceError, UsageError, parseDeviceArgs, runDevice } from './device-client.ts';

try {
  const options = parseDeviceArgs(process.argv.slice(2), process.env);
  const { scanId, scan } = await runDevice(options);
  if (scanId !== null) process.stdout.write(`${options.json ? JSON.stringify(scan, null, 2) : scanId}\n`);
} catch (error) {
  if (error instanceof UsageError) {
    if (error.message) process.stderr.write(`${error.message}\n\n`);
    process.stderr.write(DEVICE_USAGE);
    process.exitCode = error.message ? 2 : 0;
  } else if (error instanceof DeviceError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
