// The ORCA finding modal (part 3 §2 'ORCA Finding'): the patient's name, age and gender, then an accordion with
// Case History and the three examinations. Each examination groups its findings by body part in index order; a
// finding shows its photo (click to enlarge) and its symptoms, or 'No symptom found'; an examination without
// findings says 'No abnormality found.'.
import { useState } from 'react';
import {
  Accordion,
  Alert,
  Badge,
  Card,
  Center,
  Group,
  Image,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  ORCA_MESSAGES,
  ORCA_SECTIONS,
  groupOrcaFindings,
  type TOrcaDetail,
  type TOrcaExamKind,
  type TOrcaFinding,
} from '@sc/shared/orca';
import { GENDER_LABELS, labelOf } from '@sc/shared/labels';
import { errorMessage } from '../../../api/client.ts';
import { useFileObjectUrl } from '../../../api/files.ts';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { useOrca } from '../orca.api.ts';
import { OrcaCaseHistory } from './OrcaCaseHistory.tsx';
import { useTransientError } from './OrcaFileFrame.tsx';

type Enlarged = { url: string; label: string };

export function OrcaFindingDialog({ examId, onClose }: { examId: number | null; onClose: () => void }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const exam = useOrca(examId);
  const [enlarged, setEnlarged] = useState<Enlarged | null>(null);
  return (
    <>
      <Modal
        opened={examId !== null}
        onClose={onClose}
        title={ORCA_MESSAGES.findingTitle}
        size="60rem"
        fullScreen={phone}
        data-testid="orca-finding-dialog"
      >
        {examId !== null &&
          (exam.isError ? (
            <Alert color="red">{errorMessage(exam.error)}</Alert>
          ) : !exam.data ? (
            <Center h={200}>
              <Loader />
            </Center>
          ) : (
            <OrcaFindingBody exam={exam.data} onEnlarge={setEnlarged} />
          ))}
      </Modal>
      <Modal
        opened={enlarged !== null}
        onClose={() => setEnlarged(null)}
        title={enlarged?.label ?? ''}
        size="xl"
        fullScreen={phone}
        zIndex={400}
        data-testid="orca-image-dialog"
      >
        {enlarged && (
          <Image src={enlarged.url} alt={enlarged.label} radius="sm" data-testid="orca-image-enlarged" />
        )}
      </Modal>
    </>
  );
}

export function OrcaFindingBody({
  exam,
  onEnlarge,
}: {
  exam: TOrcaDetail;
  onEnlarge: (image: Enlarged) => void;
}) {
  const p = exam.patient_data;
  return (
    <Stack gap="md">
      <Group gap="lg" data-testid="orca-finding-patient">
        <Text fw={600}>{p ? `${p.first_name} ${p.last_name}`.trim() : '—'}</Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Age:{' '}
          </Text>
          {p?.age ?? '—'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Gender:{' '}
          </Text>
          {labelOf(GENDER_LABELS, p?.gender)}
        </Text>
      </Group>
      <Accordion multiple defaultValue={['case_history']} variant="separated" data-testid="orca-accordion">
        {ORCA_SECTIONS.map((section) => (
          <Accordion.Item key={section.key} value={section.key} data-testid={`orca-section-${section.key}`}>
            <Accordion.Control>{section.label}</Accordion.Control>
            <Accordion.Panel>
              {section.key === 'case_history' ? (
                <OrcaCaseHistory history={exam.case_history} cancerHistory={exam.cancer_history} />
              ) : (
                <ExamFindings findings={exam.findings} exam={section.key} onEnlarge={onEnlarge} />
              )}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function ExamFindings(props: {
  findings: TOrcaFinding[];
  exam: TOrcaExamKind;
  onEnlarge: (image: Enlarged) => void;
}) {
  const groups = groupOrcaFindings(props.findings, props.exam);
  if (groups.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid={`orca-empty-${props.exam}`}>
        {ORCA_MESSAGES.noAbnormality}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {groups.map((group) => (
        <Stack key={group.part} gap="xs" data-testid="orca-part">
          <Title order={4} size="h6">
            {group.part}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {group.findings.map((f) => (
              <FindingCard key={f.id} finding={f} onEnlarge={props.onEnlarge} />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

function FindingCard({
  finding,
  onEnlarge,
}: {
  finding: TOrcaFinding;
  onEnlarge: (image: Enlarged) => void;
}) {
  const label = [finding.part, finding.sub_part].filter(Boolean).join(' – ');
  return (
    <Card withBorder padding="xs" data-testid={`orca-finding-${finding.id}`}>
      <Card.Section>
        <FindingImage path={finding.path} label={label} onEnlarge={onEnlarge} />
      </Card.Section>
      <Stack gap={4} mt="xs">
        {finding.sub_part && (
          <Text size="sm" fw={500}>
            {finding.sub_part}
          </Text>
        )}
        {finding.symptoms.length === 0 ? (
          <Text size="sm" c="dimmed">
            {ORCA_MESSAGES.noSymptom}
          </Text>
        ) : (
          <Group gap={4} data-testid="orca-symptoms">
            {finding.symptoms.map((s) => (
              <Badge key={s} color="red.9" variant="filled" tt="none">
                {s}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function FindingImage({
  path,
  label,
  onEnlarge,
}: {
  path: string | null;
  label: string;
  onEnlarge: (image: Enlarged) => void;
}) {
  const file = useFileObjectUrl(path);
  const errorShown = useTransientError(file.error);
  if (!path) {
    return (
      <Center h={140} bg="gray.1">
        <Text size="xs" c="dimmed">
          No image
        </Text>
      </Center>
    );
  }
  if (file.loading) {
    return (
      <Center h={140}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (!file.url) {
    return (
      <Center h={140} bg="gray.1" p="xs">
        {errorShown ? (
          <Text size="xs" c="red.8" data-testid="orca-file-error">
            {file.error}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            Image not available
          </Text>
        )}
      </Center>
    );
  }
  const url = file.url;
  return (
    <UnstyledButton
      onClick={() => onEnlarge({ url, label })}
      aria-label={`Enlarge the image of ${label}`}
      style={{ display: 'block', width: '100%', cursor: 'zoom-in' }}
      data-testid="orca-finding-image"
    >
      <Image src={url} alt={label} h={140} fit="cover" />
    </UnstyledButton>
  );
}
