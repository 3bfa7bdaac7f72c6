// The whole of Mantine's styles (core, dates, notifications, the data table), in `@layer mantine`: loaded with the
// console's shell and every screen outside it other than the sign-in screens, which load signInStyles.ts only.
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import 'mantine-datatable/styles.layer.css';
