// Sets a new password from the e-mailed single-use link (/reset-password?token=…, architecture §5).
import '../../../app/consoleStyles.ts';
import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES, ZPassword } from '@sc/shared/auth';
import { errorMessage } from '../../../api/client.ts';
import { useConfirmPasswordReset } from '../auth.api.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { wantAppHosts } from '../../../components/appHosts.ts';

const MISMATCH = 'Passwords do not match.';

export function ResetPasswordPage() {
  // Its dialogs and notices: loaded as it opens, not with the sign-in screens.
  useEffect(() => wantAppHosts(), []);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirmReset = useConfirmPasswordReset();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) => {
        const result = ZPassword.safeParse(value);
        return result.success ? null : (result.error.issues[0]?.message ?? AUTH_MESSAGES.resetLinkInvalid);
      },
      confirm: (value, values) => (value === values.password ? null : MISMATCH),
    },
  });

  const backToLogin = (
    <Anchor component={Link} to="/login" size="sm" data-testid="reset-back">
      Back to Log in
    </Anchor>
  );

  if (token.length < 10) {
    return (
      <AuthLayout title="Set a new password">
        <Stack gap="md">
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} data-testid="reset-invalid">
            {AUTH_MESSAGES.resetLinkInvalid}
          </Alert>
          {backToLogin}
        </Stack>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title="Set a new password">
        <Stack gap="md">
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck size={18} />}
            data-testid="reset-success"
          >
            {done}
          </Alert>
          <Button component={Link} to="/login" fullWidth data-testid="reset-login">
            Log in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  const submit = async (password: string) => {
    setFailure(null);
    try {
      const res = await confirmReset.mutateAsync({ token, password });
      setDone(res.detail || AUTH_MESSAGES.passwordUpdated);
    } catch (e) {
      setFailure(errorMessage(e));
    }
  };

  return (
    <AuthLayout
      title="Set a new password"
      subtitle="Choose a password with at least 8 characters, a letter and a number."
    >
      <form onSubmit={form.onSubmit((v) => void submit(v.password))} noValidate data-testid="reset-form">
        <Stack gap="md">
          {failure && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} />}
              role="alert"
              data-testid="reset-error"
            >
              {failure}
            </Alert>
          )}
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            data-testid="reset-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            data-testid="reset-confirm"
            {...form.getInputProps('confirm')}
          />
          <Button
            type="submit"
            fullWidth
            size="md"
            loading={confirmReset.isPending}
            data-testid="reset-submit"
          >
            Set password
          </Button>
          <Text ta="center">{backToLogin}</Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
