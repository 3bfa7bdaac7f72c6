// View 1 of the login page: country dial code + mobile number → one-time code by SMS.
import { Anchor, Button, Group, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconMail } from '@tabler/icons-react';
import { ZOtpRequest } from '@sc/shared/auth';
import { LazyCountryDialCodePicker } from '../../../components/LazyCountryDialCodePicker.tsx';
import { PhoneInput } from '../../../components/PhoneInput.tsx';

export type PhoneValue = { mobile: string; mobile_country_code: string };

type MobileLoginViewProps = {
  initial: PhoneValue;
  loading: boolean;
  onSubmit: (value: PhoneValue) => void;
  onUseEmail: () => void;
};

export function MobileLoginView({ initial, loading, onSubmit, onUseEmail }: MobileLoginViewProps) {
  const form = useForm<PhoneValue>({
    initialValues: initial,
    validate: schemaResolver(ZOtpRequest, { sync: true }),
  });

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate data-testid="login-mobile-view">
      <Stack gap="md">
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <LazyCountryDialCodePicker
            w={{ base: 150, sm: 190 }}
            data-testid="login-country"
            value={form.values.mobile_country_code}
            onChange={(code) => form.setFieldValue('mobile_country_code', code ?? '')}
            error={form.errors.mobile_country_code}
          />
          <PhoneInput
            style={{ flex: 1 }}
            label="Mobile number"
            placeholder="98765 43210"
            testId="login-mobile"
            country={form.values.mobile_country_code}
            {...form.getInputProps('mobile')}
            value={form.values.mobile}
            onChange={(mobile) => form.setFieldValue('mobile', mobile)}
          />
        </Group>
        <Button type="submit" fullWidth size="md" loading={loading} data-testid="login-mobile-submit">
          Log in
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          ta="center"
          onClick={onUseEmail}
          data-testid="login-to-email"
        >
          <Group gap={6} justify="center" component="span">
            <IconMail size={16} />
            Log in with e-mail and password
          </Group>
        </Anchor>
      </Stack>
    </form>
  );
}
