// The Review modal (part 3 §2, §5, §7; architecture §7): the patient id and name, then each photo and video with a
// section per reviewer. A CERVAICAL_REVIEWER fills a form for each document it has not reviewed (when the exam has room
// for it); an ADMIN edits the existing reviews; everybody else reads. Another reviewer's answers stay hidden from a
// reviewer until their own are in (the API leaves them out). Status is required; only checked items are sent.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
  Modal,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  CERVICAL_MESSAGES,
  REVIEW_STATUS_LABELS,
  canAddReview,
  canEditReview,
  missingRequiredAnswer,
  reviewRequiresAnswers,
  type TCervicalDocument,
  type TDocumentUser,
  type TReviewInputRaw,
  type TReviewOptions,
  type TReviewStatus,
} from '@sc/shared/cervical';
import { errorMessage } from '../../../api/client.ts';
import { useSessionUser } from '../../../app/SessionUserContext.tsx';
import { openAlert } from '../../../components/AlertDialog.tsx';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { useCervical, useCervicalDocuments, useReviewOptions, useSaveReviews } from '../cervical.api.ts';
import { CervicalFile } from './CervicalFile.tsx';
import { ReviewerStatusBadge } from './ReviewerStatusBadge.tsx';

type Draft = {
  key: string;
  id?: number;
  document: number;
  user?: number;
  status: TReviewStatus | null;
  qualities: number[];
  findings: number[];
  /** The form as loaded, to send only what an ADMIN changed. */
  initial: string;
};
type DraftErrors = { status?: string; qualities?: string; findings?: string };

const snapshot = (d: Pick<Draft, 'status' | 'qualities' | 'findings'>) =>
  JSON.stringify([d.status, [...d.qualities].sort(), [...d.findings].sort()]);

function fromReview(doc: TCervicalDocument, r: TDocumentUser): Draft {
  const base = {
    status: r.review_status,
    qualities: r.qualities.filter((q) => q.answer).map((q) => q.quality),
    findings: r.clinical_finding.filter((f) => f.answer).map((f) => f.clinical_finding),
  };
  return { key: `${doc.id}:${r.id}`, id: r.id, document: doc.id, user: r.user, ...base, initial: snapshot(base) };
}

function validate(d: Draft, options: TReviewOptions): DraftErrors {
  const errors: DraftErrors = {};
  if (!d.status) errors.status = CERVICAL_MESSAGES.reviewStatusRequired;
  // The shared rule the API applies: required items are required on a Valid review only (issue 23.5).
  const required = (o: TReviewOptions['qualities'][number]) => ({ ...o, required: o.is_required });
  const q = missingRequiredAnswer(d.status, options.qualities.map(required), d.qualities);
  if (q) errors.qualities = CERVICAL_MESSAGES.requiredQuality(q.name);
  const f = missingRequiredAnswer(d.status, options.clinical_findings.map(required), d.findings);
  if (f) errors.findings = CERVICAL_MESSAGES.requiredQuality(f.name);
  return errors;
}

const toInput = (d: Draft): TReviewInputRaw => ({
  ...(d.id ? { id: d.id, user: d.user } : {}),
  document: d.document,
  review_status: d.status as TReviewStatus,
  qualities: d.qualities.map((quality) => ({ quality, answer: true as const })),
  clinical_finding: d.findings.map((clinical_finding) => ({ clinical_finding, answer: true as const })),
});

export function CervicalReviewDialog({ examId, onClose }: { examId: number | null; onClose: (saved: boolean) => void }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={examId !== null}
      onClose={() => onClose(false)}
      title={CERVICAL_MESSAGES.reviewTitle}
      size="72rem"
      fullScreen={phone}
      data-testid="cervical-review-dialog"
    >
      {examId !== null && <ReviewBody examId={examId} onClose={onClose} />}
    </Modal>
  );
}

function ReviewBody({ examId, onClose }: { examId: number; onClose: (saved: boolean) => void }) {
  const me = useSessionUser();
  const exam = useCervical(examId);
  const documents = useCervicalDocuments(examId);
  const options = useReviewOptions(true);
  const save = useSaveReviews();
  const [drafts, setDrafts] = useState<Record<string, Draft> | null>(null);
  const [errors, setErrors] = useState<Record<string, DraftErrors>>({});
  const rootRef = useRef<HTMLDivElement>(null);

  const docs = documents.data?.results;
  const examData = exam.data;
  const full = useMemo(() => {
    if (!examData) return true;
    const ids = [examData.reviewer_one?.id, examData.reviewer_two?.id].filter((v) => v !== undefined);
    return ids.length >= 2 && !ids.includes(me.id);
  }, [examData, me.id]);

  useEffect(() => {
    if (!docs || !examData || drafts !== null) return;
    const next: Record<string, Draft> = {};
    for (const doc of docs) {
      if (canEditReview(me.user_type)) {
        for (const r of doc.documentusers) next[`${doc.id}:${r.id}`] = fromReview(doc, r);
      }
      const mine = doc.documentusers.some((r) => r.user === me.id);
      if (canAddReview(me.user_type) && !mine && !full) {
        const base = { status: null, qualities: [], findings: [] };
        next[`${doc.id}:new`] = { key: `${doc.id}:new`, document: doc.id, ...base, initial: snapshot(base) };
      }
    }
    setDrafts(next);
  }, [docs, examData, drafts, me.id, me.user_type, full]);

  if (exam.isError || documents.isError || options.isError) {
    return <Alert color="red">{errorMessage(exam.error ?? documents.error ?? options.error)}</Alert>;
  }
  if (!examData || !docs || !options.data || drafts === null) {
    return (
      <Center h={200}>
        <Loader />
      </Center>
    );
  }
  const opts = options.data;
  const patient = examData.patient;
  const update = (key: string, patch: Partial<Draft>) => {
    setDrafts((d) => (d ? { ...d, [key]: { ...d[key]!, ...patch } } : d));
    setErrors((e) => ({ ...e, [key]: {} }));
  };
  const toSend = Object.values(drafts).filter((d) => d.id === undefined || snapshot(d) !== d.initial);
  const editable = Object.keys(drafts).length > 0;

  const submit = async () => {
    const found: Record<string, DraftErrors> = {};
    for (const d of toSend) {
      const e = validate(d, opts);
      if (Object.keys(e).length) found[d.key] = e;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      // Scroll to the first error once it is drawn.
      requestAnimationFrame(() =>
        rootRef.current?.querySelector('[data-review-error="true"]')?.scrollIntoView({ block: 'center' }),
      );
      return;
    }
    if (toSend.length === 0) {
      onClose(false);
      return;
    }
    try {
      await save.mutateAsync(toSend.map(toInput));
      onClose(true);
      void openAlert({ variant: 'success', title: CERVICAL_MESSAGES.reviewSaved });
    } catch (error) {
      void openAlert({ variant: 'error', title: 'Review not saved', message: errorMessage(error), autoClose: false });
    }
  };

  let photo = 0;
  let video = 0;
  return (
    <Stack gap="md" ref={rootRef} data-testid="cervical-review">
      <Group gap="lg">
        <Text size="sm">
          <Text span c="dimmed">
            Patient ID:{' '}
          </Text>
          {patient?.id ?? '—'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed">
            Patient name:{' '}
          </Text>
          {patient ? `${patient.first_name} ${patient.last_name}`.trim() : '—'}
        </Text>
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Reviewer 1
          </Text>
          <ReviewerStatusBadge status={examData.reviewer_one_status} />
          <Text size="sm" c="dimmed">
            Reviewer 2
          </Text>
          <ReviewerStatusBadge status={examData.reviewer_two_status} />
        </Group>
      </Group>
      {docs.length === 0 && <Text c="dimmed">This exam has no photos or videos to review.</Text>}
      {docs.map((doc) => {
        const label = doc.document_type === 'VIDEO' ? `Video ${++video}` : `Photo ${++photo}`;
        const hidden = doc.review_count - doc.documentusers.length;
        const sorted = [...doc.documentusers].sort((a, b) => (a.reviewer ?? 9) - (b.reviewer ?? 9));
        const fresh = drafts[`${doc.id}:new`];
        return (
          <Card key={doc.id} withBorder padding="sm" data-testid={`review-document-${doc.id}`}>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <Stack gap={6}>
                <Group justify="space-between">
                  <Title order={3} size="h5">
                    {label}
                  </Title>
                  {doc.symptom_tag && <Badge variant="outline" color="gray.7">{doc.symptom_tag}</Badge>}
                </Group>
                <CervicalFile
                  path={doc.path}
                  title={`${label} of exam ${examData.id}`}
                  kind={doc.document_type === 'VIDEO' ? 'video' : 'image'}
                  height={300}
                />
              </Stack>
              <Stack gap="sm">
                {sorted.map((r) => {
                  const draft = drafts[`${doc.id}:${r.id}`];
                  const heading = `Reviewer ${r.reviewer ?? ''}${r.user_data ? `: ${r.user_data.first_name} ${r.user_data.last_name}` : ''}`;
                  return draft ? (
                    <ReviewForm key={r.id} heading={heading} draft={draft} errors={errors[draft.key]} options={opts} onChange={(p) => update(draft.key, p)} />
                  ) : (
                    <ReviewReadOnly key={r.id} heading={heading} review={r} />
                  );
                })}
                {hidden > 0 && (
                  <Text size="sm" c="dimmed" data-testid="review-hidden">
                    {hidden === 1 ? "Another reviewer's answers are" : "Other reviewers' answers are"} hidden until you
                    have reviewed every photo and video of this exam.
                  </Text>
                )}
                {fresh && (
                  <ReviewForm
                    heading="Your review"
                    draft={fresh}
                    errors={errors[fresh.key]}
                    options={opts}
                    onChange={(p) => update(fresh.key, p)}
                  />
                )}
                {doc.review_count === 0 && !fresh && (
                  <Text size="sm" c="dimmed">
                    Not reviewed yet.
                  </Text>
                )}
              </Stack>
            </SimpleGrid>
          </Card>
        );
      })}
      {canAddReview(me.user_type) && full && (
        <Text size="sm" c="dimmed">
          {CERVICAL_MESSAGES.examFull}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onClose(false)}>
          {editable ? 'Cancel' : 'Close'}
        </Button>
        {editable && (
          <Button onClick={() => void submit()} loading={save.isPending} data-testid="review-save">
            Save
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function ReviewReadOnly({ heading, review }: { heading: string; review: TDocumentUser }) {
  const checked = (items: { name: string; answer: boolean }[]) =>
    items.filter((i) => i.answer).map((i) => i.name).join(', ') || 'None';
  return (
    <Stack gap={4} data-testid={`review-readonly-${review.id}`}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {heading}
        </Text>
        <ReviewerStatusBadge status={review.review_status} />
      </Group>
      <Text size="sm">
        <Text span c="dimmed" size="sm">
          Qualities:{' '}
        </Text>
        {checked(review.qualities)}
      </Text>
      <Text size="sm">
        <Text span c="dimmed" size="sm">
          Clinical findings:{' '}
        </Text>
        {checked(review.clinical_finding)}
      </Text>
    </Stack>
  );
}

function ReviewForm({
  heading,
  draft,
  errors = {},
  options,
  onChange,
}: {
  heading: string;
  draft: Draft;
  errors?: DraftErrors;
  options: TReviewOptions;
  onChange: (patch: Partial<Draft>) => void;
}) {
  const hasError = Object.values(errors).some(Boolean);
  // A required item is marked (and asked for) only while the review can need it: not on an Invalid photo.
  const requires = reviewRequiresAnswers(draft.status);
  const label = (o: { name: string; is_required: boolean }) => (o.is_required && requires ? `${o.name} *` : o.name);
  return (
    <Stack gap="xs" data-review-error={hasError ? 'true' : 'false'} data-testid={`review-form-${draft.key}`}>
      <Text size="sm" fw={600}>
        {heading}
      </Text>
      <Radio.Group
        label="Status"
        withAsterisk
        value={draft.status ?? ''}
        onChange={(v) => onChange({ status: v as TReviewStatus })}
        error={errors.status}
      >
        <Group gap="md" mt={4}>
          {(['VALID', 'IN_VALID'] as const).map((s) => (
            <Radio key={s} value={s} label={REVIEW_STATUS_LABELS[s]} data-testid={`review-status-${draft.key}-${s}`} />
          ))}
        </Group>
      </Radio.Group>
      <Checkbox.Group
        label="Qualities"
        description={requires ? undefined : CERVICAL_MESSAGES.invalidNeedsNoAnswers}
        value={draft.qualities.map(String)}
        onChange={(v) => onChange({ qualities: v.map(Number) })}
        error={errors.qualities}
      >
        <Stack gap={4} mt={4}>
          {options.qualities.map((q) => (
            <Checkbox key={q.id} value={String(q.id)} label={label(q)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Checkbox.Group
        label="Clinical findings"
        value={draft.findings.map(String)}
        onChange={(v) => onChange({ findings: v.map(Number) })}
        error={errors.findings}
      >
        <Stack gap={4} mt={4}>
          {options.clinical_findings.map((f) => (
            <Checkbox key={f.id} value={String(f.id)} label={label(f)} />
          ))}
        </Stack>
      </Checkbox.Group>
    </Stack>
  );
}
