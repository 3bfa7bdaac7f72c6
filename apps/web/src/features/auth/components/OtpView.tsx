// View 2 of the login page: the 6-digit code; 'Resend code' appears after the countdown and
// returns to the phone view (part 1 §4).
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
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
};

export function OtpView({ phoneLabel, resendAfter, loading, onSubmit, onResend }: OtpViewProps) {
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
        {secondsLeft > 0 ? (
          <Text size="sm" c="dimmed" ta="center" data-testid="login-resend-countdown">
            You can request a new code in {secondsLeft} s
          </Text>
        ) : (
          <Anchor component="button" type="button" size="sm" ta="center" onClick={onResend} data-testid="login-resend">
            Resend code
          </Anchor>
        )}
      </Stack>
    </form>
  );
}
