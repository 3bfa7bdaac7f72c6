// The firmware modal (part 3 §2, §4, §5, §8): 'Create Firmware' holds the file upload, version and path, all
// disabled until an .ibe file is chosen; the file is checked in the browser with the API's own rules (type .ibe,
// 2 MB, readable text, a version greater than 0 on its first line: else 'file format invalid' and the file is
// cleared) and the version is looked up ('already exists') before Create. 'Firmware Details' shows one version
// read-only, with its checksum and a Download button. Server errors on create show in the form error area for 5 s.
import { useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Loader, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileUpload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { DATE_DISPLAY_FORMAT, FILE_ERROR_MS } from '@sc/shared/constants';
import {
  FIRMWARE_EXTENSION,
  FIRMWARE_FOLDER,
  FIRMWARE_MESSAGES,
  checkFirmwareContent,
  checkFirmwareFile,
  type TFirmware,
} from '@sc/shared/firmware';
import { ApiError, errorMessage, fieldErrorList } from '../../../api/client.ts';
import { FormErrorArea } from '../../../components/FormErrorArea.tsx';
import { formatBytes } from '../../../components/FileUploadButton.tsx';
import { useErrorArea } from '../../../components/useErrorArea.ts';
import { useTimedMessage } from '../../../components/useTimedMessage.ts';
import { downloadFirmware, isFirmwareVersionTaken, useCreateFirmware, useFirmware } from '../firmware.api.ts';

type FirmwareDialogProps = {
  opened: boolean;
  /** Undefined: Create Firmware; an id: Firmware Details. */
  firmwareId?: number;
  onClose: (saved: boolean) => void;
};

export function FirmwareDialog({ opened, firmwareId, onClose }: FirmwareDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={firmwareId === undefined ? FIRMWARE_MESSAGES.createTitle : FIRMWARE_MESSAGES.detailsTitle}
      size="md"
      data-testid="firmware-dialog"
    >
      {opened &&
        (firmwareId === undefined ? <CreateFirmwareForm onClose={onClose} /> : <FirmwareDetails id={firmwareId} />)}
    </Modal>
  );
}

/** The bytes of a chosen file (at most 2 MB: the size is checked first). */
async function readBytes(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

function CreateFirmwareForm({ onClose }: { onClose: (saved: boolean) => void }) {
  const create = useCreateFirmware();
  const area = useErrorArea();
  const fileError = useTimedMessage(FILE_ERROR_MS);
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  const [versionError, setVersionError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  // The native input keeps a refused file unless emptied, and then picking the same file again fires no change: the
  // user fixes the file, picks it again and nothing happens (issue 23.23). Emptied after every pick.
  const resetRef = useRef<() => void>(null);

  const clearFile = (message: string) => {
    setFile(null);
    setVersion('');
    setVersionError(null);
    fileError.show(message);
  };

  const choose = async (chosen: File | null) => {
    resetRef.current?.();
    area.clear();
    fileError.clear();
    setVersionError(null);
    if (!chosen) {
      setFile(null);
      setVersion('');
      return;
    }
    const problem = checkFirmwareFile({ name: chosen.name, size: chosen.size });
    if (problem) return clearFile(problem);
    setChecking(true);
    try {
      let content;
      try {
        content = checkFirmwareContent(await readBytes(chosen));
      } catch {
        content = { ok: false as const, message: FIRMWARE_MESSAGES.notAccepted };
      }
      if (!content.ok) return clearFile(content.message);
      setFile(chosen);
      setVersion(content.version);
      // Part 3 §5: before create, the version must not already exist.
      if (await isFirmwareVersionTaken(content.version).catch(() => false)) {
        setVersionError(FIRMWARE_MESSAGES.alreadyExists);
      }
    } finally {
      setChecking(false);
    }
  };

  const submit = async () => {
    if (!file || versionError) return;
    area.clear();
    try {
      const saved = await create.mutateAsync({ file, version });
      notifications.show({ color: 'teal', message: saved.detail });
      onClose(true);
    } catch (error) {
      console.error('Firmware create failed', error);
      if (error instanceof ApiError && error.status === 400) {
        const { version: onVersion, file: onFile, ...rest } = error.body;
        if (Array.isArray(onVersion) && typeof onVersion[0] === 'string') setVersionError(onVersion[0]);
        if (Array.isArray(onFile) && typeof onFile[0] === 'string') clearFile(onFile[0]);
        const others = fieldErrorList(rest);
        if (others.length > 0) area.show(others);
        return;
      }
      // Part 3 §5: 'file not accepted' when the file cannot be uploaded (the server was not reached).
      if (error instanceof ApiError && error.status === 0) return fileError.show(FIRMWARE_MESSAGES.notAccepted);
      if (error instanceof ApiError && (error.status === 401 || error.status >= 500)) return;
      area.show(error instanceof ApiError ? fieldErrorList(error.body) : [{ title: 'error', text: errorMessage(error) }]);
    }
  };

  const disabled = file === null;
  return (
    <Stack gap="md" data-testid="firmware-create-form">
      <FormErrorArea errors={area.errors} testId="firmware-form-errors" />
      <FileInput
        label="Firmware file"
        description={`An ${FIRMWARE_EXTENSION} file of at most ${formatBytes(2 * 1024 * 1024)}; its first line is the version.`}
        placeholder={`Choose an ${FIRMWARE_EXTENSION} file`}
        accept={FIRMWARE_EXTENSION}
        withAsterisk
        clearable
        clearButtonProps={{ 'aria-label': 'Clear file' }}
        value={file}
        onChange={(f) => void choose(f)}
        resetRef={resetRef}
        error={fileError.message}
        leftSection={checking ? <Loader size={14} /> : <IconFileUpload size={16} />}
        data-testid="firmware-file"
      />
      <TextInput
        label="Version"
        withAsterisk
        readOnly
        disabled={disabled}
        value={version}
        error={versionError}
        description={disabled ? undefined : 'Read from the first line of the file.'}
        data-testid="firmware-version"
      />
      <TextInput
        label="Path"
        withAsterisk
        readOnly
        disabled={disabled}
        value={file ? `${FIRMWARE_FOLDER}/${file.name}` : ''}
        description={disabled ? undefined : 'Stored under firmware/ when created.'}
        data-testid="firmware-path"
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => onClose(false)}>
          Cancel
        </Button>
        <Button
          onClick={() => void submit()}
          loading={create.isPending}
          disabled={disabled || checking || versionError !== null}
          data-testid="firmware-submit"
        >
          Create
        </Button>
      </Group>
    </Stack>
  );
}

function FirmwareDetails({ id }: { id: number }) {
  const firmware = useFirmware(id);
  if (firmware.isPending) return <Loader size="sm" data-testid="firmware-details-loading" />;
  if (!firmware.data) return <Alert color="red">{firmware.error ? errorMessage(firmware.error) : 'Not found.'}</Alert>;
  return <FirmwareDetailsBody firmware={firmware.data} />;
}

function FirmwareDetailsBody({ firmware }: { firmware: TFirmware }) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFirmware(firmware);
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Stack gap="sm" data-testid="firmware-details">
      <TextInput label="Version" value={firmware.version} readOnly data-testid="firmware-version" />
      <Textarea
        label="Path"
        value={firmware.path}
        readOnly
        autosize
        minRows={1}
        styles={{ input: { wordBreak: 'break-all' } }}
        data-testid="firmware-path"
      />
      <TextInput label="Created" value={dayjs(firmware.created).format(DATE_DISPLAY_FORMAT)} readOnly />
      <TextInput label="Size" value={firmware.size === null ? '—' : formatBytes(firmware.size)} readOnly />
      <Textarea
        label="Checksum (SHA-256)"
        value={firmware.checksum ?? '—'}
        readOnly
        autosize
        minRows={1}
        styles={{ input: { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' } }}
        data-testid="firmware-checksum"
      />
      <Group justify="flex-end">
        <Button
          leftSection={<IconDownload size={16} />}
          onClick={() => void download()}
          loading={downloading}
          data-testid="firmware-download"
        >
          Download
        </Button>
      </Group>
    </Stack>
  );
}
