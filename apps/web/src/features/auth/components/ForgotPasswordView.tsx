// View 4 of the login page: ask for a password-reset link.
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import { ZPasswordResetRequest } from '@sc/shared/auth';

type ForgotPasswordViewProps = {
  initialEmail: string;
  loading: boolean;
  onSubmit: (email: string) => void;
  onBack: () => void;
};

export function ForgotPasswordView({ initialEmail, loading, onSubmit, onBack }: ForgotPasswordViewProps) {
  const form = useForm({
    initialValues: { email: initialEmail },
    validate: schemaResolver(ZPasswordResetRequest, { sync: true }),
  });

  return (
    <form
      onSubmit={form.onSubmit((v) => onSubmit(v.email.trim()))}
      noValidate
      data-testid="login-forgot-view"
    >
      <Stack gap="md">
        <TextInput
          label="Email"
          placeholder="you@example.org"
          type="email"
          autoComplete="email"
          data-testid="forgot-email"
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth size="md" loading={loading} data-testid="forgot-submit">
          Submit
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="center"
          onClick={onBack}
          data-testid="forgot-back"
        >
          <Group gap={6} justify="center" component="span">
            <IconArrowLeft size={16} />
            Back to Log in
          </Group>
        </Anchor>
      </Stack>
    </form>
  );
}
