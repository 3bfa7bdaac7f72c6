// View 3 of the login page: e-mail and password.
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconDeviceMobile } from '@tabler/icons-react';
import { ZPasswordLogin, type TPasswordLogin } from '@sc/shared/auth';

type EmailLoginViewProps = {
  initialEmail: string;
  loading: boolean;
  onSubmit: (value: TPasswordLogin) => void;
  onForgotPassword: (email: string) => void;
  onUseMobile: () => void;
};

export function EmailLoginView({
  initialEmail,
  loading,
  onSubmit,
  onForgotPassword,
  onUseMobile,
}: EmailLoginViewProps) {
  const form = useForm<TPasswordLogin>({
    initialValues: { email: initialEmail, password: '' },
    validate: schemaResolver(ZPasswordLogin, { sync: true }),
  });

  return (
    <form
      onSubmit={form.onSubmit((v) => onSubmit({ email: v.email.trim(), password: v.password }))}
      noValidate
      data-testid="login-email-view"
    >
      <Stack gap="md">
        <TextInput
          label="Email"
          placeholder="you@example.org"
          type="email"
          autoComplete="username"
          data-testid="login-email"
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          data-testid="login-password"
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => onForgotPassword(form.values.email.trim())}
            data-testid="login-forgot-link"
          >
            Forgot Password
          </Anchor>
        </Group>
        <Button type="submit" fullWidth size="md" loading={loading} data-testid="login-email-submit">
          Log in
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="center"
          onClick={onUseMobile}
          data-testid="login-to-mobile"
        >
          <Group gap={6} justify="center" component="span">
            <IconDeviceMobile size={16} />
            Log in with mobile number
          </Group>
        </Anchor>
      </Stack>
    </form>
  );
}
