// View 2 of the login page: the 6-digit code; 'Resend code' appears after the countdown and
// returns to the phone view (part 1 §4). 'Change number' and 'Use e-mail instead' leave at any time,
// so a code that never arrives is not a dead end.
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconMail } from '@tabler/icons-react';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { ZOtpCode } from '@sc/shared/auth';
import { OTP_LENGTH } from '@sc/shared/constants';
import { useCountdown } from '../../../components/useCountdown.ts';

const ZCodeForm = z.object({ code: ZOtpCode });

type OtpViewProps = {
  phoneLabel: string;
  resendAfter: number;
  loading: boolean;
  onSubmit: (code: string) => void;
  onResend: () => void;
  /** Back to the number view; absent when the code is a second factor (the number is the account's). */
  onChangeNumber?: () => void;
  onUseEmail: () => void;
};

export function OtpView({
  phoneLabel,
  resendAfter,
  loading,
  onSubmit,
  onResend,
  onChangeNumber,
  onUseEmail,
}: OtpViewProps) {
  const secondsLeft = useCountdown(resendAfter);
  const form = useForm({ initialValues: { code: '' }, validate: schemaResolver(ZCodeForm, { sync: true }) });

  return (
    <form onSubmit={form.onSubmit((v) => onSubmit(v.code))} noValidate data-testid="login-code-view">
      <Stack gap="md">
        <Text size="sm" data-testid="login-code-sent">
          An SMS with a verification code has been sent to <b>{phoneLabel}</b>.
        </Text>
        <TextInput
          label="Code"
          placeholder={'0'.repeat(OTP_LENGTH)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          data-autofocus
          styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' } }}
          data-testid="login-code"
          {...form.getInputProps('code')}
          onChange={(e) => form.setFieldValue('code', e.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button type="submit" fullWidth size="md" loading={loading} data-testid="login-verify">
          Verify
        </Button>
        <Group justify={onChangeNumber ? 'space-between' : 'center'} gap="xs">
          {onChangeNumber && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={onChangeNumber}
              data-testid="login-change-number"
            >
              <Group gap={6} component="span" wrap="nowrap">
                <IconArrowLeft size={16} aria-hidden />
                Change number
              </Group>
            </Anchor>
          )}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={onUseEmail}
            data-testid="login-code-to-email"
          >
            <Group gap={6} component="span" wrap="nowrap">
              <IconMail size={16} aria-hidden />
              Use e-mail instead
            </Group>
          </Anchor>
        </Group>
        {secondsLeft > 0 ? (
          <Text size="sm" c="dimmed" ta="center" data-testid="login-resend-countdown">
            You can request a new code in {secondsLeft} s
          </Text>
        ) : (
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={onResend}
            data-testid="login-resend"
          >
            Resend code
          </Anchor>
        )}
      </Stack>
    </form>
  );
}
