import { describe, expect, it } from 'vitest';
import {
  FIRMWARE_MAX_BYTES,
  FIRMWARE_MESSAGES,
  checkFirmwareContent,
  checkFirmwareFile,
  firmwareFileName,
  isSameVersion,
  readFirmwareVersion,
} from './firmware.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readFirmwareVersion', () => {
  it('reads the first line as the version when its numeric part after v or V is above 0', () => {
    expect(readFirmwareVersion('v2.14\nbody')).toBe('v2.14');
    expect(readFirmwareVersion('\uFEFF  V3 \r\nbody')).toBe('V3');
    expect(readFirmwareVersion('0.5')).toBe('0.5');
    expect(readFirmwareVersion('1.0.0.7\n')).toBe('1.0.0.7');
  });

  it('refuses a zero version, words, an empty first line and an over-long line', () => {
    for (const text of ['v0', 'v0.0.0\n', 'version 2', '\nv2.0', 'v2.x', '2..1', `v${'1'.repeat(40)}`, 'vv2']) {
      expect(readFirmwareVersion(text), JSON.stringify(text)).toBeNull();
    }
  });
});

describe('file checks', () => {
  it('wants an .ibe name of at most 2 MB, not empty', () => {
    expect(checkFirmwareFile({ name: 'a.IBE', size: 10 })).toBeNull();
    expect(checkFirmwareFile({ name: 'a.ibe', size: FIRMWARE_MAX_BYTES })).toBeNull();
    expect(checkFirmwareFile({ name: 'a.bin', size: 10 })).toBe(FIRMWARE_MESSAGES.wrongType);
    expect(checkFirmwareFile({ name: 'a.ibe.txt', size: 10 })).toBe(FIRMWARE_MESSAGES.wrongType);
    expect(checkFirmwareFile({ name: 'a.ibe', size: FIRMWARE_MAX_BYTES + 1 })).toBe(FIRMWARE_MESSAGES.tooLarge);
    expect(checkFirmwareFile({ name: 'a.ibe', size: 0 })).toBe(FIRMWARE_MESSAGES.emptyFile);
  });

  it("says 'file not accepted' for binary or non-UTF-8 content and 'file format invalid' without a version", () => {
    expect(checkFirmwareContent(bytes('v2.1\nok'))).toEqual({ ok: true, version: 'v2.1' });
    expect(checkFirmwareContent(new Uint8Array([0x76, 0x32, 0x00]))).toEqual({ ok: false, message: FIRMWARE_MESSAGES.notAccepted });
    expect(checkFirmwareContent(new Uint8Array([0x76, 0x32, 0x0a, 0xff]))).toEqual({ ok: false, message: FIRMWARE_MESSAGES.notAccepted });
    expect(checkFirmwareContent(bytes('firmware\n'))).toEqual({ ok: false, message: FIRMWARE_MESSAGES.formatInvalid });
  });
});

describe('versions', () => {
  it('treats v2.14, 2.14 and V2.14.0 as one version, and v2.9 and v2.90 as two', () => {
    expect(isSameVersion('v2.14', '2.14')).toBe(true);
    expect(isSameVersion('v2.14', 'V2.14.0')).toBe(true);
    expect(isSameVersion('v2.9', 'v2.90')).toBe(false);
  });

  it('names a download after its version with only safe characters', () => {
    expect(firmwareFileName('v2.14')).toBe('firmware_v2.14.ibe');
    expect(firmwareFileName('v2 "x"')).toBe('firmware_v2__x_.ibe');
  });
});
